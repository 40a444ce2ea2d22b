func.func @rope(%x: tensor<?x128xbf16>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x128xbf16> {
  %y = coda.rope %x, %cos, %sin {head_dim = 64 : i64, style = "half"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  %z = coda.rope %y, %cos, %sin {head_dim = 64 : i64, style = "interleaved"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  return %z : tensor<?x128xbf16>
}
