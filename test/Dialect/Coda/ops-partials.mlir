// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A standalone statistics kernel and the finishing reduction of an RMSNorm.
// CHECK-LABEL: func.func @rms_statistics
//       CHECK:   %[[P:.+]] = coda.partial_reduce %{{.+}} {kind = "sum_squares"} : (tensor<?x64xbf16>) -> tensor<?x?xf32>
//       CHECK:   coda.reduce_partials %[[P]] {count = 64 : i64, epsilon = 9.99999974E-6 : f32, kind = "rstd"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
func.func @rms_statistics(%x: tensor<?x64xbf16>) -> tensor<?x1xf32> {
  %p = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x64xbf16>) -> tensor<?x?xf32>
  %r = coda.reduce_partials %p {kind = "rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// With a planned block width the number of partials is static.
// CHECK-LABEL: func.func @planned_partials
//       CHECK:   coda.partial_reduce %{{.+}} {kind = "max", tile_n = 32 : i64} : (tensor<?x80xf32>) -> tensor<?x3xf32>
func.func @planned_partials(%x: tensor<?x80xf32>) -> tensor<?x3xf32> {
  %p = coda.partial_reduce %x {kind = "max", tile_n = 32 : i64} : (tensor<?x80xf32>) -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}

// -----

// LayerNorm statistics: sums and sums of squares give the mean and rstd.
// CHECK-LABEL: func.func @layer_norm_statistics
//       CHECK:   %{{.+}}:2 = coda.reduce_partials %{{.+}}, %{{.+}} {count = 64 : i64, epsilon = 9.99999974E-6 : f32, kind = "mean_rstd"} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
func.func @layer_norm_statistics(%x: tensor<?x64xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %s = coda.partial_reduce %x {kind = "sum"} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  %q = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  %mean, %rstd = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %mean, %rstd : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// Log-sum-exp partials of logits are finished by an "lse" reduction.
// CHECK-LABEL: func.func @lse
//       CHECK:   coda.partial_reduce %{{.+}} {kind = "lse"}
//       CHECK:   coda.reduce_partials %{{.+}} {kind = "lse"}
func.func @lse(%logits: tensor<?x256xf32>) -> tensor<?x1xf32> {
  %p = coda.partial_reduce %logits {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
  %l = coda.reduce_partials %p {kind = "lse"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %l : tensor<?x1xf32>
}

// -----

// Per-block sums over the rows, finished by a sum over the blocks.
// CHECK-LABEL: func.func @block_sums
//       CHECK:   %[[P:.+]] = coda.partial_sum_rows %{{.+}} {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:   coda.sum_rows %[[P]] : (tensor<?x64xf32>) -> tensor<64xbf16>
//       CHECK:   coda.partial_sum_rows %{{.+}} {block_rows = 16 : i64} : (tensor<37x64xbf16>) -> tensor<3x64xf32>
func.func @block_sums(%x: tensor<?x64xf32>, %y: tensor<37x64xbf16>) -> (tensor<64xbf16>, tensor<3x64xf32>) {
  %p = coda.partial_sum_rows %x {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %s = coda.sum_rows %p : (tensor<?x64xf32>) -> tensor<64xbf16>
  %q = coda.partial_sum_rows %y {block_rows = 16 : i64} : (tensor<37x64xbf16>) -> tensor<3x64xf32>
  return %s, %q : tensor<64xbf16>, tensor<3x64xf32>
}
