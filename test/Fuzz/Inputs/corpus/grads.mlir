func.func @grads(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dy: tensor<?x64xbf16>, %s: tensor<?x1xf32>, %l: tensor<?x64xf32>, %t: tensor<?xi64>, %d: tensor<f32>) -> (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) {
  %dx, %dg = coda.rms_norm_grad %x, %g, %dy row_dot %s rstd %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %w = coda.cross_entropy_row_weights %t, %d {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
  %dl = coda.softmax_target_grad %l, %s, %w, %t : (tensor<?x64xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x64xbf16>
  %r = coda.map inputs(%x, %dy) {row_sum} : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x1xf32> {
  ^bb0(%a: tensor<?x64xf32>, %b: tensor<?x64xf32>):
    %p = coda.mul %a, %b : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
    coda.yield %p : tensor<?x64xf32>
  }
  return %dx, %dg, %dl, %r : tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>
}
