func.func @scale(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.scale %x {factor = 1.250000e-01 : f32} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %z = coda.scale %y {factor = 1.000000e+00 : f32} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %z : tensor<?x64xbf16>
}
