func.func @mul(%a: tensor<?x64xbf16>, %b: tensor<64xbf16>, %c: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.mul %a, %b : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.mul %y, %c : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %z : tensor<?x64xbf16>
}
