func.func @slice(%x: tensor<?x96xbf16>) -> tensor<?x16xbf16> {
  %a = coda.slice %x {offset = 32 : i64, size = 64 : i64} : (tensor<?x96xbf16>) -> tensor<?x64xbf16>
  %b = coda.slice %a {offset = 16 : i64, size = 16 : i64} : (tensor<?x64xbf16>) -> tensor<?x16xbf16>
  return %b : tensor<?x16xbf16>
}
