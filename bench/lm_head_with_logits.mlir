// The LM head of examples/lm-head.mlir with its logits also returned and
// per-row losses (reduction "none"), for `bench/lm_head_bias.py logits` and
// `split`: the logits GEMM stores its f32 tile beside the loss partials.
func.func @lm_head(%x: tensor<?x2048xbf16>, %g: tensor<2048xbf16>,
                   %w: tensor<32768x2048xbf16>, %targets: tensor<?xi64>)
    -> (tensor<?xf32>, tensor<?x32768xf32>) {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  %logits = coda.linear %h, %w : (tensor<?x2048xbf16>, tensor<32768x2048xbf16>) -> tensor<?x32768xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "none"} : (tensor<?x32768xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss, %logits : tensor<?xf32>, tensor<?x32768xf32>
}
