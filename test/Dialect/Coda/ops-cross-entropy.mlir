// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Defaults (ignore_index = -100, reduction = "mean") are elided; the loss is a scalar.
// CHECK-LABEL: func.func @cross_entropy_mean
//       CHECK:   coda.cross_entropy %{{.+}}, %{{.+}} : (tensor<?x64xbf16>, tensor<?xi64>) -> tensor<f32>
func.func @cross_entropy_mean(%logits: tensor<?x64xbf16>, %t: tensor<?xi64>) -> tensor<f32> {
  %l = coda.cross_entropy %logits, %t {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x64xbf16>, tensor<?xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Per-row losses with i32 targets and another ignore index.
// CHECK-LABEL: func.func @cross_entropy_none
//       CHECK:   coda.cross_entropy %{{.+}}, %{{.+}} {ignore_index = 0 : i64, reduction = "none"} : (tensor<?x64xf32>, tensor<?xi32>) -> tensor<?xf32>
func.func @cross_entropy_none(%logits: tensor<?x64xf32>, %t: tensor<?xi32>) -> tensor<?xf32> {
  %l = coda.cross_entropy %logits, %t {ignore_index = 0 : i64, reduction = "none"} : (tensor<?x64xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %l : tensor<?xf32>
}

// -----

// A summed loss.
// CHECK-LABEL: func.func @cross_entropy_sum
//       CHECK:   coda.cross_entropy {{.*}} {reduction = "sum"} : (tensor<4x64xf16>, tensor<4xi64>) -> tensor<f32>
func.func @cross_entropy_sum(%logits: tensor<4x64xf16>, %t: tensor<4xi64>) -> tensor<f32> {
  %l = coda.cross_entropy %logits, %t {reduction = "sum"} : (tensor<4x64xf16>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The rows' log-sum-exps, and a loss gradient that takes its softmax from
// them.
// CHECK-LABEL: func.func @log_sum_exp
//       CHECK:   %[[S:.+]] = coda.log_sum_exp %{{.+}} : (tensor<?x64xbf16>) -> tensor<?x1xf32>
//       CHECK:   coda.cross_entropy_grad %{{.+}}, %{{.+}}, %{{.+}}, %[[S]] : (tensor<?x64xbf16>, tensor<?xi64>, tensor<f32>, tensor<?x1xf32>) -> tensor<?x64xbf16>
func.func @log_sum_exp(%logits: tensor<?x64xbf16>, %t: tensor<?xi64>, %dl: tensor<f32>) -> tensor<?x64xbf16> {
  %s = coda.log_sum_exp %logits : (tensor<?x64xbf16>) -> tensor<?x1xf32>
  %g = coda.cross_entropy_grad %logits, %t, %dl, %s : (tensor<?x64xbf16>, tensor<?xi64>, tensor<f32>, tensor<?x1xf32>) -> tensor<?x64xbf16>
  return %g : tensor<?x64xbf16>
}
