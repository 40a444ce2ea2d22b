// The canonical CODA block: the span of a Llama-3-1B model from the attention
// output projection of layer l through the QKV projection of layer l+1.
// Hidden size 2048, FFN 8192, 32 query heads and 8 key/value heads of 64,
// bf16 activations and weights, RoPE tables in f32.
//
//   x1 = x0 + y0 Woᵀ                        residual after attention
//   h1 = rms_norm(x1) · g1
//   a  = silu(h1 Wgᵀ) · (h1 Wuᵀ)            SwiGLU MLP
//   x2 = x1 + a Wdᵀ                         residual after the MLP
//   h2 = rms_norm(x2) · g2
//   qkv = rope(h2 Wqkvᵀ) on the q and k heads, v untouched
//
// Returns the residual stream x2 (the next block's input) and q|k|v, the
// operands of the next attention.
func.func @block(%x0: tensor<?x2048xbf16>, %y0: tensor<?x2048xbf16>,
                 %wo: tensor<2048x2048xbf16>, %g1: tensor<2048xbf16>,
                 %wg: tensor<8192x2048xbf16>, %wu: tensor<8192x2048xbf16>,
                 %wd: tensor<2048x8192xbf16>, %g2: tensor<2048xbf16>,
                 %wqkv: tensor<3072x2048xbf16>,
                 %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>)
    -> (tensor<?x2048xbf16>, tensor<?x3072xbf16>) {
  %o = coda.linear %y0, %wo : (tensor<?x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<?x2048xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  %h1 = coda.rms_norm %x1, %g1 {epsilon = 1.0e-05 : f32} : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  %gate = coda.linear %h1, %wg : (tensor<?x2048xbf16>, tensor<8192x2048xbf16>) -> tensor<?x8192xbf16>
  %up = coda.linear %h1, %wu : (tensor<?x2048xbf16>, tensor<8192x2048xbf16>) -> tensor<?x8192xbf16>
  %act = coda.swiglu %gate, %up : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
  %down = coda.linear %act, %wd : (tensor<?x8192xbf16>, tensor<2048x8192xbf16>) -> tensor<?x2048xbf16>
  %x2 = coda.add %x1, %down : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  %h2 = coda.rms_norm %x2, %g2 {epsilon = 1.0e-05 : f32} : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  %qkv = coda.linear %h2, %wqkv : (tensor<?x2048xbf16>, tensor<3072x2048xbf16>) -> tensor<?x3072xbf16>
  %q = coda.slice %qkv {offset = 0 : i64, size = 2048 : i64} : (tensor<?x3072xbf16>) -> tensor<?x2048xbf16>
  %k = coda.slice %qkv {offset = 2048 : i64, size = 512 : i64} : (tensor<?x3072xbf16>) -> tensor<?x512xbf16>
  %v = coda.slice %qkv {offset = 2560 : i64, size = 512 : i64} : (tensor<?x3072xbf16>) -> tensor<?x512xbf16>
  %q_rot = coda.rope %q, %cos, %sin {head_dim = 64 : i64, style = "half"} : (tensor<?x2048xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x2048xbf16>
  %k_rot = coda.rope %k, %cos, %sin {head_dim = 64 : i64, style = "half"} : (tensor<?x512xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x512xbf16>
  %qkv_rot = coda.concat %q_rot, %k_rot, %v : (tensor<?x2048xbf16>, tensor<?x512xbf16>, tensor<?x512xbf16>) -> tensor<?x3072xbf16>
  return %x2, %qkv_rot : tensor<?x2048xbf16>, tensor<?x3072xbf16>
}
