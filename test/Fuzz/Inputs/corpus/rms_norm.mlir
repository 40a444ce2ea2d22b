func.func @rms_norm(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
