// The language-model head and its loss: final RMSNorm, a linear to a
// 32768-token vocabulary with f32 logits, and the mean cross-entropy against
// the next tokens (rows whose target is -100 are ignored).
func.func @lm_head(%x: tensor<?x2048xbf16>, %g: tensor<2048xbf16>,
                   %w: tensor<32768x2048xbf16>, %targets: tensor<?xi64>)
    -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  %logits = coda.linear %h, %w : (tensor<?x2048xbf16>, tensor<32768x2048xbf16>) -> tensor<?x32768xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x32768xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}
