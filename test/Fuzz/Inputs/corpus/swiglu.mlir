func.func @swiglu(%g: tensor<?x128xbf16>, %u: tensor<?x128xbf16>) -> tensor<?x128xbf16> {
  %y = coda.swiglu %g, %u : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
