// RUN: coda-opt %s --split-input-file --coda-sum-products | FileCheck %s

// The input gradient of a SwiGLU MLP: the gate's product, added in the up
// product's epilogue, joins its mainloop (each product keeps its own K);
// the gate's GEMM goes away.
// CHECK-LABEL: func.func @swiglu_input_gradient
//  CHECK-SAME:   (%[[DG:.+]]: tensor<?x128xbf16>, %[[DU:.+]]: tensor<?x64xbf16>, %[[WG:.+]]: tensor<128x64xbf16>, %[[WU:.+]]: tensor<64x64xbf16>, %[[R:.+]]: tensor<?x64xbf16>)
//   CHECK-NOT:   coda.gemm
//       CHECK:   %[[DX:.+]] = coda.gemm %[[DU]], [%[[WU]]] + %[[DG]], [%[[WG]]] inputs(%[[R]]) {b_layout = "kn"}
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x64xf32>, %[[RES:.+]]: tensor<?x64xf32>):
//       CHECK:     %[[SUM:.+]] = coda.add %[[RES]], %[[ACC]]
//       CHECK:     coda.yield %[[SUM]]
//   CHECK-NOT:   coda.gemm
//       CHECK:   return %[[DX]]
func.func @swiglu_input_gradient(%dg: tensor<?x128xbf16>, %du: tensor<?x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<64x64xbf16>, %r: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %g = coda.gemm %dg, [%wg] {b_layout = "kn"} : (tensor<?x128xbf16>, tensor<128x64xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  %dx = coda.gemm %du, [%wu] inputs(%g, %r) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>, %gi: tensor<?x64xf32>, %ri: tensor<?x64xf32>):
    %0 = coda.add %gi, %acc : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
    %1 = coda.add %ri, %0 : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
    coda.yield %1 : tensor<?x64xf32>
  }
  return %dx : tensor<?x64xbf16>
}

// -----

// A product read elsewhere too is computed once, by its own GEMM.
// CHECK-LABEL: func.func @product_read_twice
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] :
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) :
func.func @product_read_twice(%a0: tensor<?x64xbf16>, %a1: tensor<?x64xbf16>, %w0: tensor<32x64xbf16>, %w1: tensor<32x64xbf16>) -> (tensor<?x32xbf16>, tensor<?x32xbf16>) {
  %p = coda.gemm %a0, [%w0] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  %y = coda.gemm %a1, [%w1] inputs(%p) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %pi: tensor<?x32xf32>):
    %0 = coda.add %acc, %pi : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %0 : tensor<?x32xf32>
  }
  return %p, %y : tensor<?x32xbf16>, tensor<?x32xbf16>
}

// -----

// The epilogue scales the accumulator before the sum: the products do not
// share it.
// CHECK-LABEL: func.func @accumulator_scaled_first
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] :
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) :
func.func @accumulator_scaled_first(%a0: tensor<?x64xbf16>, %a1: tensor<?x64xbf16>, %w0: tensor<32x64xbf16>, %w1: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %p = coda.gemm %a0, [%w0] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  %y = coda.gemm %a1, [%w1] inputs(%p) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %pi: tensor<?x32xf32>):
    %0 = coda.scale %acc {factor = 2.0 : f32} : (tensor<?x32xf32>) -> tensor<?x32xf32>
    %1 = coda.add %0, %pi : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %1 : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// A product with its own epilogue (here a scale) is not plain.
// CHECK-LABEL: func.func @product_with_epilogue
//       CHECK:   coda.scale
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) :
func.func @product_with_epilogue(%a0: tensor<?x64xbf16>, %a1: tensor<?x64xbf16>, %w0: tensor<32x64xbf16>, %w1: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %p = coda.gemm %a0, [%w0] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    %0 = coda.scale %acc {factor = 2.0 : f32} : (tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %0 : tensor<?x32xf32>
  }
  %y = coda.gemm %a1, [%w1] inputs(%p) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %pi: tensor<?x32xf32>):
    %0 = coda.add %acc, %pi : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %0 : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// Weight gradients reduce over the rows: the kernel generator splits that
// reduction instead, so they stay two GEMMs.
// CHECK-LABEL: func.func @weight_gradients
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] {a_layout = "km", b_layout = "kn"}
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) {a_layout = "km", b_layout = "kn"}
func.func @weight_gradients(%d0: tensor<?x32xbf16>, %d1: tensor<?x32xbf16>, %x0: tensor<?x64xbf16>, %x1: tensor<?x64xbf16>) -> tensor<32x64xf32> {
  %p = coda.gemm %d0, [%x0] {a_layout = "km", b_layout = "kn"} : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xf32> {
  ^bb0(%acc: tensor<32x64xf32>):
    coda.yield %acc : tensor<32x64xf32>
  }
  %y = coda.gemm %d1, [%x1] inputs(%p) {a_layout = "km", b_layout = "kn"} : (tensor<?x32xbf16>, tensor<?x64xbf16>, tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%acc: tensor<32x64xf32>, %pi: tensor<32x64xf32>):
    %0 = coda.add %acc, %pi : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    coda.yield %0 : tensor<32x64xf32>
  }
  return %y : tensor<32x64xf32>
}

// -----

// Weights of different columns cannot share the accumulator's layout.
// CHECK-LABEL: func.func @stacked_columns_differ
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] :
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) :
func.func @stacked_columns_differ(%a0: tensor<?x64xbf16>, %a1: tensor<?x64xbf16>, %w0: tensor<16x64xbf16>, %w1: tensor<16x64xbf16>, %w2: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %p = coda.gemm %a0, [%w0, %w1] : (tensor<?x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  %y = coda.gemm %a1, [%w2] inputs(%p) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %pi: tensor<?x32xf32>):
    %0 = coda.add %acc, %pi : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %0 : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}
