func.func @layer_norm(%x: tensor<8x64xf16>, %g: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<8x64xf16> {
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<8x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
