func.func @concat(%x: tensor<?x96xbf16>) -> tensor<?x96xbf16> {
  %a = coda.slice %x {offset = 0 : i64, size = 32 : i64} : (tensor<?x96xbf16>) -> tensor<?x32xbf16>
  %b = coda.slice %x {offset = 32 : i64, size = 64 : i64} : (tensor<?x96xbf16>) -> tensor<?x64xbf16>
  %y = coda.concat %a, %b : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<?x96xbf16>
  return %y : tensor<?x96xbf16>
}
