// The MLP half of a GPT-2 (124M) block: hidden 768, FFN 3072, bf16.
//
//   h = layer_norm(x) · g + b
//   y = x + gelu_tanh(h W1ᵀ + b1) W2ᵀ + b2
func.func @mlp(%x: tensor<?x768xbf16>, %g: tensor<768xbf16>, %b: tensor<768xbf16>,
               %w1: tensor<3072x768xbf16>, %b1: tensor<3072xbf16>,
               %w2: tensor<768x3072xbf16>, %b2: tensor<768xbf16>)
    -> tensor<?x768xbf16> {
  %h = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<?x768xbf16>
  %up = coda.linear %h, %w1, %b1 : (tensor<?x768xbf16>, tensor<3072x768xbf16>, tensor<3072xbf16>) -> tensor<?x3072xbf16>
  %act = coda.gelu %up {approximate = "tanh"} : (tensor<?x3072xbf16>) -> tensor<?x3072xbf16>
  %down = coda.linear %act, %w2, %b2 : (tensor<?x3072xbf16>, tensor<768x3072xbf16>, tensor<768xbf16>) -> tensor<?x768xbf16>
  %y = coda.add %x, %down : (tensor<?x768xbf16>, tensor<?x768xbf16>) -> tensor<?x768xbf16>
  return %y : tensor<?x768xbf16>
}
