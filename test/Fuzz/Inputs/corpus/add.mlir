func.func @add(%a: tensor<?x64xbf16>, %b: tensor<64xbf16>, %c: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.add %a, %b : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.add %y, %c : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %z : tensor<?x64xbf16>
}
