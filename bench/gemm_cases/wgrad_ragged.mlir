// A weight gradient whose output is no tile multiple: dW is [200, 136]
// (the last 256-row tile and 128-column tile run past the edges).
func.func @wgrad(%dy: tensor<?x200xbf16>, %x: tensor<?x136xbf16>) -> tensor<200x136xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x200xbf16>, tensor<?x136xbf16>) -> tensor<200x136xbf16>
  return %dw : tensor<200x136xbf16>
}
