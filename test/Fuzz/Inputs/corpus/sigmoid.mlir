func.func @sigmoid(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.sigmoid %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
