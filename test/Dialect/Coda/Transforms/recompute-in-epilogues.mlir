// RUN: coda-opt %s --split-input-file --coda-recompute-in-epilogues | FileCheck %s
// RUN: coda-opt %s --split-input-file --coda-recompute-in-epilogues="max-epilogue-ops=1" | FileCheck %s --check-prefix=MAX1

// A backward's recomputed SwiGLU output: the gradient's GEMM reads gate and
// up anyway, so it stores the output too; the weight gradient reads that
// result and the standalone op is gone.
// CHECK-LABEL: func.func @swiglu_output
//  CHECK-SAME:   (%[[DY:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<64x128xbf16>, %[[G:.+]]: tensor<?x128xbf16>, %[[U:.+]]: tensor<?x128xbf16>)
//   CHECK-NOT:   coda.swiglu
//       CHECK:   %[[D:.+]]:2 = coda.gemm %[[DY]], [%[[W]]] inputs(%[[G]], %[[U]]) {b_layout = "kn"} : {{.*}} -> (tensor<?x128xbf16>, tensor<?x128xbf16>) {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x128xf32>, %[[GA:.+]]: tensor<?x128xf32>, %[[UA:.+]]: tensor<?x128xf32>):
//       CHECK:     %[[DG:.+]] = coda.activation_grad %[[GA]], %[[ACC]]
//       CHECK:     %[[ACT:.+]] = coda.swiglu %[[GA]], %[[UA]] : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
//       CHECK:     coda.yield %[[DG]], %[[ACT]]
//       CHECK:   %[[DW:.+]] = coda.gemm %[[DY]], [%[[D]]#1] {a_layout = "km", b_layout = "kn"}
//       CHECK:   return %[[D]]#0, %[[DW]]
// With max-epilogue-ops=1 the dgrad's epilogue (one op) takes no more.
// MAX1-LABEL: func.func @swiglu_output
//       MAX1:   coda.swiglu
//       MAX1:   coda.gemm {{.*}} -> tensor<?x128xbf16> {
func.func @swiglu_output(%dy: tensor<?x64xbf16>, %w: tensor<64x128xbf16>, %gate: tensor<?x128xbf16>, %up: tensor<?x128xbf16>) -> (tensor<?x128xbf16>, tensor<64x128xbf16>) {
  %act = coda.swiglu %gate, %up : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %d = coda.gemm %dy, [%w] inputs(%gate, %up) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x128xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %g: tensor<?x128xf32>, %u: tensor<?x128xf32>):
    %dg = coda.activation_grad %g, %acc : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %dg : tensor<?x128xf32>
  }
  %dw = coda.gemm %dy, [%act] {a_layout = "km", b_layout = "kn"} : (tensor<?x64xbf16>, tensor<?x128xbf16>) -> tensor<64x128xbf16> {
  ^bb0(%acc: tensor<64x128xf32>):
    coda.yield %acc : tensor<64x128xf32>
  }
  return %d, %dw : tensor<?x128xbf16>, tensor<64x128xbf16>
}

// -----

// A per-row and a per-column operand become inputs of the GEMM; the tile
// it already reads keeps its argument. Two ops, two more results.
// CHECK-LABEL: func.func @row_and_column_scales
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<128x64xbf16>, %[[X:.+]]: tensor<?x128xf32>, %[[R:.+]]: tensor<?x1xf32>, %[[C:.+]]: tensor<128xf32>)
//   CHECK-NOT:   coda.mul
//       CHECK:   %[[K:.+]]:3 = coda.gemm %[[A]], [%[[W]]] inputs(%[[X]], %[[C]], %[[R]]) : {{.*}} -> (tensor<?x128xf32>, tensor<?x128xf32>, tensor<?x128xf32>) {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x128xf32>, %[[XA:.+]]: tensor<?x128xf32>, %[[CA:.+]]: tensor<128xf32>, %[[RA:.+]]: tensor<?x1xf32>):
//       CHECK:     %[[T:.+]] = coda.mul %[[XA]], %[[CA]]
//       CHECK:     %[[S:.+]] = coda.mul %[[XA]], %[[RA]]
//       CHECK:     coda.yield %{{.+}}, %[[T]], %[[S]]
//       CHECK:   return %[[K]]#0, %[[K]]#2, %[[K]]#1
func.func @row_and_column_scales(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %x: tensor<?x128xf32>, %r: tensor<?x1xf32>, %c: tensor<128xf32>) -> (tensor<?x128xf32>, tensor<?x128xf32>, tensor<?x128xf32>) {
  %s = coda.mul %x, %r : (tensor<?x128xf32>, tensor<?x1xf32>) -> tensor<?x128xf32>
  %t = coda.mul %x, %c : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  %y = coda.gemm %a, [%w] inputs(%x) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xf32>) -> tensor<?x128xf32> {
  ^bb0(%acc: tensor<?x128xf32>, %xa: tensor<?x128xf32>):
    %sum = coda.add %acc, %xa : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %sum : tensor<?x128xf32>
  }
  return %y, %s, %t : tensor<?x128xf32>, tensor<?x128xf32>, tensor<?x128xf32>
}

// -----

// Left alone: a GEMM that reads only one of the op's tiles (the op would
// add a tile read to its epilogue).
// CHECK-LABEL: func.func @one_tile_read
//       CHECK:   coda.swiglu
//       CHECK:   coda.gemm
//   CHECK-NOT:   coda.swiglu
func.func @one_tile_read(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<?x128xbf16>, %u: tensor<?x128xbf16>) -> (tensor<?x128xbf16>, tensor<?x128xbf16>) {
  %act = coda.swiglu %g, %u : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %y = coda.gemm %a, [%w] inputs(%g) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ga: tensor<?x128xf32>):
    %sum = coda.add %acc, %ga : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %sum : tensor<?x128xf32>
  }
  return %act, %y : tensor<?x128xbf16>, tensor<?x128xbf16>
}

// -----

// The GEMM that reads both tiles comes after a reader of the op, which
// nothing before it reads: the reader follows it and reads its result.
// CHECK-LABEL: func.func @reader_moves_after
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<128x64xbf16>, %[[G:.+]]: tensor<?x128xbf16>, %[[U:.+]]: tensor<?x128xbf16>)
//   CHECK-NOT:   coda.mul %[[G]]
//       CHECK:   %[[BOTH:.+]]:2 = coda.gemm %[[A]], [%[[W]]] inputs(%[[G]], %[[U]])
//       CHECK:     %[[M:.+]] = coda.mul
//       CHECK:     coda.yield %{{.+}}, %[[M]]
//       CHECK:   %[[READER:.+]] = coda.gemm %[[A]], [%[[W]]] inputs(%[[BOTH]]#1)
//       CHECK:   return %[[READER]], %[[BOTH]]#0
func.func @reader_moves_after(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<?x128xbf16>, %u: tensor<?x128xbf16>) -> (tensor<?x128xbf16>, tensor<?x128xbf16>) {
  %m = coda.mul %g, %u : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %reader = coda.gemm %a, [%w] inputs(%m) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ma: tensor<?x128xf32>):
    %sum = coda.add %acc, %ma : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %sum : tensor<?x128xf32>
  }
  %both = coda.gemm %a, [%w] inputs(%g, %u) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ga: tensor<?x128xf32>, %ua: tensor<?x128xf32>):
    %sum = coda.add %ga, %ua : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    %out = coda.add %acc, %sum : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %out : tensor<?x128xf32>
  }
  return %reader, %both : tensor<?x128xbf16>, tensor<?x128xbf16>
}

// -----

// Left alone: the GEMM that reads both tiles also reads what the op's
// reader makes, so the reader cannot follow it.
// CHECK-LABEL: func.func @after_dependent_reader
//       CHECK:   coda.mul
//       CHECK:   coda.gemm
//       CHECK:   coda.gemm
//   CHECK-NOT:   coda.mul
func.func @after_dependent_reader(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %g: tensor<?x128xbf16>, %u: tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  %m = coda.mul %g, %u : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %reader = coda.gemm %a, [%w] inputs(%m) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ma: tensor<?x128xf32>):
    %sum = coda.add %acc, %ma : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %sum : tensor<?x128xf32>
  }
  %both = coda.gemm %a, [%w] inputs(%g, %u, %reader) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ga: tensor<?x128xf32>, %ua: tensor<?x128xf32>, %ra: tensor<?x128xf32>):
    %sum = coda.add %ga, %ua : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    %more = coda.add %sum, %ra : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    %out = coda.add %acc, %more : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %out : tensor<?x128xf32>
  }
  return %both : tensor<?x128xbf16>
}

// -----

// A backward's recomputed RMSNorm from the forward's saved row scales
// (x · rstd · gamma): the norm gradient's GEMM reads x, so it stores the
// normalized rows too; rstd and gamma become its inputs, and the weight
// gradient that reads them, placed before it, follows it.
// CHECK-LABEL: func.func @saved_norm_scales
//  CHECK-SAME:   (%[[DY:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<64x128xbf16>, %[[X:.+]]: tensor<?x128xbf16>, %[[R:.+]]: tensor<?x1xf32>, %[[GAMMA:.+]]: tensor<128xbf16>)
//   CHECK-NOT:   coda.mul_outer %[[X]]
//       CHECK:   %[[D:.+]]:2 = coda.gemm %[[DY]], [%[[W]]] inputs(%[[X]], %[[R]], %[[GAMMA]]) {b_layout = "kn"}
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x128xf32>, %[[XA:.+]]: tensor<?x128xf32>, %[[RA:.+]]: tensor<?x1xf32>, %[[GA:.+]]: tensor<128xf32>):
//       CHECK:     %[[H:.+]] = coda.mul_outer %[[XA]], %[[RA]], %[[GA]] : (tensor<?x128xf32>, tensor<?x1xf32>, tensor<128xf32>) -> tensor<?x128xf32>
//       CHECK:     coda.yield %{{.+}}, %[[H]]
//       CHECK:   %[[DW:.+]] = coda.gemm %[[DY]], [%[[D]]#1] {a_layout = "km", b_layout = "kn"}
//       CHECK:   return %[[D]]#0, %[[DW]]
func.func @saved_norm_scales(%dy: tensor<?x64xbf16>, %w: tensor<64x128xbf16>, %x: tensor<?x128xbf16>, %rstd: tensor<?x1xf32>, %gamma: tensor<128xbf16>) -> (tensor<?x128xbf16>, tensor<64x128xbf16>) {
  %h = coda.mul_outer %x, %rstd, %gamma : (tensor<?x128xbf16>, tensor<?x1xf32>, tensor<128xbf16>) -> tensor<?x128xbf16>
  %dw = coda.gemm %dy, [%h] {a_layout = "km", b_layout = "kn"} : (tensor<?x64xbf16>, tensor<?x128xbf16>) -> tensor<64x128xbf16> {
  ^bb0(%acc: tensor<64x128xf32>):
    coda.yield %acc : tensor<64x128xf32>
  }
  %d = coda.gemm %dy, [%w] inputs(%x) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %xa: tensor<?x128xf32>):
    %s = coda.add %acc, %xa : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %s : tensor<?x128xf32>
  }
  return %d, %dw : tensor<?x128xbf16>, tensor<64x128xbf16>
}

// -----

// Left alone: the GEMM's results are wider than the op's.
// CHECK-LABEL: func.func @wider_results
//       CHECK:   coda.silu
//       CHECK:   coda.gemm
func.func @wider_results(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %g: tensor<?x128xbf16>) -> (tensor<?x128xbf16>, tensor<?x256xbf16>) {
  %s = coda.silu %g : (tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %wide = coda.gemm %a, [%w] inputs(%g) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?x128xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x128xf32>):
    %lo = coda.slice %acc {offset = 0 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %hi = coda.slice %acc {offset = 128 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %p = coda.mul %hi, %ga : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    %c = coda.concat %lo, %p : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x256xf32>
    coda.yield %c : tensor<?x256xf32>
  }
  return %s, %wide : tensor<?x128xbf16>, tensor<?x256xbf16>
}

// -----

// Left alone: an op on a GEMM's result, even when a later GEMM reads that
// result (coda-form-epilogues moves it into the producing GEMM).
// CHECK-LABEL: func.func @reads_gemm_result
//       CHECK:   coda.gemm
//       CHECK:   coda.silu
//       CHECK:   coda.gemm
func.func @reads_gemm_result(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>) -> (tensor<?x128xbf16>, tensor<?x128xbf16>) {
  %y = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  %t = coda.silu %y : (tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %z = coda.gemm %a, [%w] inputs(%y) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %ya: tensor<?x128xf32>):
    %sum = coda.add %acc, %ya : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %sum : tensor<?x128xf32>
  }
  return %t, %z : tensor<?x128xbf16>, tensor<?x128xbf16>
}
