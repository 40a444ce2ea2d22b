// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// The gradient ops that coda-generate-backward writes round-trip.
// CHECK-LABEL: func.func @grads
//       CHECK:   coda.transposed_matmul %{{.*}}, %{{.*}} : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xbf16>
//       CHECK:   coda.sum_rows %{{.*}} : (tensor<?x32xbf16>) -> tensor<32xbf16>
//       CHECK:   coda.rms_norm_grad %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
//       CHECK:   coda.rms_norm_grad %{{.*}}, %{{.*}}, %{{.*}} row_dot %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
//       CHECK:   coda.rms_norm_grad %{{.*}}, %{{.*}}, %{{.*}} row_dot %{{.*}} rstd %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
//       CHECK:   coda.rms_norm_grad %{{.*}}, %{{.*}}, %{{.*}} rstd %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
//       CHECK:   coda.layer_norm_grad %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>, tensor<64xbf16>)
//       CHECK:   coda.activation_grad %{{.*}}, %{{.*}} {activation = "gelu_tanh"} : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
//       CHECK:   coda.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = 3 : i64, reduction = "sum"} : (tensor<?x64xbf16>, tensor<?xi64>, tensor<f32>) -> tensor<?x64xbf16>
func.func @grads(%x: tensor<?x64xbf16>, %dy: tensor<?x32xbf16>, %g: tensor<64xbf16>,
                 %dx: tensor<?x64xbf16>, %t: tensor<?xi64>, %dl: tensor<f32>,
                 %s: tensor<?x1xf32>) {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xbf16>
  %db = coda.sum_rows %dy : (tensor<?x32xbf16>) -> tensor<32xbf16>
  %a, %b = coda.rms_norm_grad %x, %g, %dx {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %a2, %b2 = coda.rms_norm_grad %x, %g, %dx row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %a3, %b3 = coda.rms_norm_grad %x, %g, %dx row_dot %s rstd %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %a4, %b4 = coda.rms_norm_grad %x, %g, %dx rstd %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %c, %d, %e = coda.layer_norm_grad %x, %g, %dx {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>, tensor<64xbf16>)
  %f = coda.activation_grad %x, %dx {activation = "gelu_tanh"} : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %j = coda.cross_entropy_grad %x, %t, %dl {ignore_index = 3 : i64, reduction = "sum"} : (tensor<?x64xbf16>, tensor<?xi64>, tensor<f32>) -> tensor<?x64xbf16>
  return
}

// -----

// activation_grad defaults to SiLU; cross_entropy_grad to "mean" over rows
// whose target is not -100.
// CHECK-LABEL: func.func @defaults
//       CHECK:   coda.activation_grad %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK:   coda.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<?xi32>, tensor<f32>) -> tensor<?x8xf32>
func.func @defaults(%x: tensor<?x8xf32>, %t: tensor<?xi32>, %dl: tensor<f32>) {
  %a = coda.activation_grad %x, %x : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %b = coda.cross_entropy_grad %x, %t, %dl : (tensor<?x8xf32>, tensor<?xi32>, tensor<f32>) -> tensor<?x8xf32>
  return
}

// -----

// The GPU forms of the norm gradients round-trip, with and without the
// residual.
// CHECK-LABEL: func.func @norm_grad_partials
//       CHECK:   coda.rms_norm_grad_partials %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<?x64xbf16>)
//       CHECK:   coda.layer_norm_grad_partials %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<?x64xbf16>)
//       CHECK:   coda.layer_norm_grad_partials %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<?x64xbf16>)
func.func @norm_grad_partials(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dy: tensor<?x64xbf16>, %r: tensor<?x64xbf16>) {
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<?x64xbf16>)
  %pg, %pb, %dx2 = coda.layer_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<?x64xbf16>)
  %qg, %qb, %dx3 = coda.layer_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<?x64xbf16>)
  return
}

// -----

// A saved-log-sum-exp loss's gradient: the rows' weights and the tile-local
// gradient of each logit round-trip; the weights default to "mean" with
// ignore_index -100.
// CHECK-LABEL: func.func @cross_entropy_from_lse
//       CHECK:   %[[W:.+]] = coda.cross_entropy_row_weights %{{.*}}, %{{.*}} : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
//       CHECK:   coda.cross_entropy_row_weights %{{.*}}, %{{.*}} {ignore_index = 0 : i64, reduction = "none"} : (tensor<?xi64>, tensor<?xf32>) -> tensor<?x1xf32>
//       CHECK:   coda.softmax_target_grad %{{.*}}, %{{.*}}, %[[W]], %{{.*}} : (tensor<?x64xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x64xbf16>
func.func @cross_entropy_from_lse(%l: tensor<?x64xf32>, %lse: tensor<?x1xf32>, %t: tensor<?xi64>, %d: tensor<f32>, %dn: tensor<?xf32>) -> tensor<?x64xbf16> {
  %w = coda.cross_entropy_row_weights %t, %d : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
  %wn = coda.cross_entropy_row_weights %t, %dn {ignore_index = 0 : i64, reduction = "none"} : (tensor<?xi64>, tensor<?xf32>) -> tensor<?x1xf32>
  %g = coda.softmax_target_grad %l, %lse, %w, %t : (tensor<?x64xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x64xbf16>
  return %g : tensor<?x64xbf16>
}
