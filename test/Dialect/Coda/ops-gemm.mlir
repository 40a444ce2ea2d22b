// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A GEMM whose epilogue adds a residual tile and emits partial sums of squares.
// CHECK-LABEL: func.func @gemm_residual_partials
//  CHECK-SAME:   (%[[Y:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<32x64xbf16>, %[[R:.+]]: tensor<?x32xbf16>)
//       CHECK:   %[[G:.+]]:2 = coda.gemm %[[Y]], [%[[W]]] inputs(%[[R]]) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> (tensor<?x32xbf16>, tensor<?x?xf32>) {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x32xf32>, %[[RES:.+]]: tensor<?x32xf32>):
//       CHECK:     %[[X:.+]] = coda.add %[[ACC]], %[[RES]]
//       CHECK:     %[[P:.+]] = coda.partial_reduce %[[X]] {kind = "sum_squares"}
//       CHECK:     coda.yield %[[X]], %[[P]] : tensor<?x32xf32>, tensor<?x?xf32>
//       CHECK:   return %[[G]]#0, %[[G]]#1
func.func @gemm_residual_partials(%y: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %res: tensor<?x32xbf16>) -> (tensor<?x32xbf16>, tensor<?x?xf32>) {
  %x1, %p = coda.gemm %y, [%w] inputs(%res) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> (tensor<?x32xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x32xf32>, %r: tensor<?x32xf32>):
    %x = coda.add %acc, %r : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %s = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x32xf32>) -> tensor<?x?xf32>
    coda.yield %x, %s : tensor<?x32xf32>, tensor<?x?xf32>
  }
  return %x1, %p : tensor<?x32xbf16>, tensor<?x?xf32>
}

// -----

// Two weights share one mainloop; a per-row scale and SwiGLU on the two halves
// halve the stored width.
// CHECK-LABEL: func.func @gemm_two_weights_swiglu
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] inputs(%{{.+}}) : (tensor<?x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<?x1xf32>) -> tensor<?x16xbf16> {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x32xf32>, %[[RSTD:.+]]: tensor<?x1xf32>):
//       CHECK:     coda.mul %[[ACC]], %[[RSTD]] : (tensor<?x32xf32>, tensor<?x1xf32>) -> tensor<?x32xf32>
//       CHECK:     coda.swiglu
func.func @gemm_two_weights_swiglu(%h: tensor<?x64xbf16>, %wg: tensor<16x64xbf16>, %wu: tensor<16x64xbf16>, %r: tensor<?x1xf32>) -> tensor<?x16xbf16> {
  %a = coda.gemm %h, [%wg, %wu] inputs(%r) : (tensor<?x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<?x1xf32>) -> tensor<?x16xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %rstd: tensor<?x1xf32>):
    %s = coda.mul %acc, %rstd : (tensor<?x32xf32>, tensor<?x1xf32>) -> tensor<?x32xf32>
    %g = coda.slice %s {offset = 0 : i64, size = 16 : i64} : (tensor<?x32xf32>) -> tensor<?x16xf32>
    %u = coda.slice %s {offset = 16 : i64, size = 16 : i64} : (tensor<?x32xf32>) -> tensor<?x16xf32>
    %y = coda.swiglu %g, %u : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    coda.yield %y : tensor<?x16xf32>
  }
  return %a : tensor<?x16xbf16>
}

// -----

// Operand layouts for the backward GEMMs: a read as [K, M], b as [K, N]; the
// contraction runs over a dynamic row count.
// CHECK-LABEL: func.func @gemm_layouts
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] {a_layout = "km", b_layout = "kn"} : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xf32> {
//       CHECK:   ^bb0(%{{.+}}: tensor<32x64xf32>):
func.func @gemm_layouts(%dz: tensor<?x32xbf16>, %u: tensor<?x64xbf16>) -> tensor<32x64xf32> {
  %dw = coda.gemm %dz, [%u] {a_layout = "km", b_layout = "kn"} : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xf32> {
  ^bb0(%acc: tensor<32x64xf32>):
    coda.yield %acc : tensor<32x64xf32>
  }
  return %dw : tensor<32x64xf32>
}

// -----

// Integer inputs keep their type inside the epilogue; vectors are widened to f32.
// CHECK-LABEL: func.func @gemm_input_types
//       CHECK:   ^bb0(%{{.+}}: tensor<?x32xf32>, %{{.+}}: tensor<32xf32>, %{{.+}}: tensor<?xi64>):
func.func @gemm_input_types(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>, %t: tensor<?xi64>) -> tensor<?x32xbf16> {
  %y = coda.gemm %x, [%w] inputs(%b, %t) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>, tensor<?xi64>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %bias: tensor<32xf32>, %targets: tensor<?xi64>):
    %s = coda.add %acc, %bias : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
    coda.yield %s : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// A result accumulated into an input (the residual-stream gradient).
// CHECK-LABEL: func.func @gemm_accumulate
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) {accumulate = array<i64: 0>}
func.func @gemm_accumulate(%dz: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %dx: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.gemm %dz, [%w] inputs(%dx) {accumulate = array<i64: 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// A sum of two products, each with its own K, into one accumulator.
// CHECK-LABEL: func.func @gemm_sum_of_products
//  CHECK-SAME:   (%[[DG:.+]]: tensor<?x64xbf16>, %[[DU:.+]]: tensor<?x128xbf16>, %[[WG:.+]]: tensor<32x64xbf16>, %[[WU:.+]]: tensor<32x128xbf16>)
//       CHECK:   coda.gemm %[[DG]], [%[[WG]]] + %[[DU]], [%[[WU]]] : (tensor<?x64xbf16>, tensor<?x128xbf16>, tensor<32x64xbf16>, tensor<32x128xbf16>) -> tensor<?x32xbf16> {
//       CHECK:   ^bb0(%{{.+}}: tensor<?x32xf32>):
func.func @gemm_sum_of_products(%dg: tensor<?x64xbf16>, %du: tensor<?x128xbf16>, %wg: tensor<32x64xbf16>, %wu: tensor<32x128xbf16>) -> tensor<?x32xbf16> {
  %dx = coda.gemm %dg, [%wg] + %du, [%wu] : (tensor<?x64xbf16>, tensor<?x128xbf16>, tensor<32x64xbf16>, tensor<32x128xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %dx : tensor<?x32xbf16>
}

// -----

// Products with two weights each: the columns of each product's weights stack.
// CHECK-LABEL: func.func @gemm_sum_of_stacked_products
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] + %{{.+}}, [%{{.+}}, %{{.+}}] {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>) -> tensor<?x32xbf16> {
func.func @gemm_sum_of_stacked_products(%a0: tensor<?x64xbf16>, %a1: tensor<?x64xbf16>, %w0: tensor<64x16xbf16>, %w1: tensor<64x16xbf16>, %w2: tensor<64x16xbf16>, %w3: tensor<64x16xbf16>) -> tensor<?x32xbf16> {
  %y = coda.gemm %a0, [%w0, %w1] + %a1, [%w2, %w3] {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>, tensor<64x16xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}
