// RUN: coda-opt %s --split-input-file --convert-coda-to-linalg | FileCheck %s

// RMSNorm: a row reduction of squares, then one elementwise pass.
// CHECK-LABEL: func.func @rms_norm
//       CHECK:   linalg.fill
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//       CHECK:     math.sqrt
func.func @rms_norm(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// Partials reduce blocks of tile_n columns: [M, ceil(80 / 32)] = [M, 3],
// cast back to the op's symbolic [M, ?].
// CHECK-LABEL: func.func @partials
//       CHECK:   tensor.empty() : tensor<32xf32>
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
//  CHECK-SAME:     outs(%{{.+}} : tensor<?x3xf32>)
//       CHECK:   tensor.cast %{{.+}} : tensor<?x3xf32> to tensor<?x?xf32>
func.func @partials(%x: tensor<?x80xf32>) -> tensor<?x?xf32> {
  %p = coda.partial_reduce %x {kind = "sum_squares", tile_n = 32 : i64} : (tensor<?x80xf32>) -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// The rstd of partial sums of squares, as [M, 1].
// CHECK-LABEL: func.func @rstd
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:   math.sqrt
//       CHECK:   tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [%{{.+}}, 1] : tensor<?xf32> into tensor<?x1xf32>
func.func @rstd(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %r = coda.reduce_partials %p {kind = "rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// Cross-entropy: the target logit by index, the row max and sum of
// exponentials, then the mean over rows not ignored.
// CHECK-LABEL: func.func @cross_entropy
//       CHECK:   tensor.extract
//       CHECK:   arith.maximumf
//       CHECK:   math.exp
//       CHECK:   arith.cmpi ne
//       CHECK:   iterator_types = ["reduction"]
//       CHECK:   arith.divf
//       CHECK:   return %{{.+}} : tensor<f32>
func.func @cross_entropy(%l: tensor<?x64xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  %loss = coda.cross_entropy %l, %t : (tensor<?x64xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// The GPU form of the RMSNorm gradient on the CPU: dx with the residual
// added in the same pass; the first partial row holds all of dgamma, the
// others are 0.
// CHECK-LABEL: func.func @rms_norm_grad_partials
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>, tensor<?xf32>, tensor<64xbf16>)
//       CHECK:   %[[ZERO:.+]] = linalg.fill {{.*}} -> tensor<4x64xf32>
//       CHECK:   %[[P:.+]] = tensor.insert_slice %{{.+}} into %[[ZERO]][0, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
//       CHECK:   return %[[P]]
func.func @rms_norm_grad_partials(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dy: tensor<?x64xbf16>, %r: tensor<?x64xbf16>) -> (tensor<4x64xf32>, tensor<?x64xbf16>) {
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<4x64xf32>, tensor<?x64xbf16>)
  return %p, %dx : tensor<4x64xf32>, tensor<?x64xbf16>
}

// -----

// The GPU form of the LayerNorm gradient on the CPU likewise: dx with the
// residual, and the first rows of the two partials holding dgamma and
// dbeta.
// CHECK-LABEL: func.func @layer_norm_grad_partials
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<64xbf16>)
//       CHECK:   %[[PG:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
//       CHECK:   %[[PB:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
//       CHECK:   return %[[PG]], %[[PB]]
func.func @layer_norm_grad_partials(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dy: tensor<?x64xbf16>, %r: tensor<?x64xbf16>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<?x64xbf16>) {
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<?x64xbf16>)
  return %pg, %pb, %dx : tensor<4x64xf32>, tensor<4x64xf32>, tensor<?x64xbf16>
}

// -----

// With its row statistic given, the RMSNorm gradient reads it (collapsed to
// one value per row) instead of summing h · dy over each row.
// CHECK-LABEL: func.func @rms_norm_grad_row_dot
//       CHECK:   %[[S:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %[[S]], %{{.+}} : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?xf32>, tensor<?xf32>, tensor<64xbf16>)
func.func @rms_norm_grad_row_dot(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dy: tensor<?x64xbf16>, %s: tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %dx, %dg = coda.rms_norm_grad %x, %g, %dy row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  return %dx, %dg : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// Per-block sums over rows: ceil(M / 16) partial rows, each the sum of its
// block's rows inside x (the last block's reads past M clamped and not
// counted).
// CHECK-LABEL: func.func @partial_sum_rows
//       CHECK:   %[[M:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?x64xf32>
//       CHECK:   %[[END:.+]] = arith.addi %[[M]], %c15
//       CHECK:   %[[BLOCKS:.+]] = arith.divui %[[END]], %c16
//       CHECK:   tensor.empty(%[[BLOCKS]]) : tensor<?x64xf32>
//       CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
//       CHECK:     arith.cmpi ult
//       CHECK:     tensor.extract
//       CHECK:     arith.select
//       CHECK:     arith.addf
func.func @partial_sum_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %p = coda.partial_sum_rows %x {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %p : tensor<?x64xf32>
}
