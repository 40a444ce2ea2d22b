func.func @linear(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
