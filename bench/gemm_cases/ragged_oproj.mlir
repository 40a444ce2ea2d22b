// The O-projection pattern at N = 200, K = 136: the partial sums of
// squares of the second tile cover 72 columns, and the rstd reduction
// finishes them over all 200.
func.func @block(%y: tensor<?x136xbf16>, %wo: tensor<200x136xbf16>, %x0: tensor<?x200xbf16>, %g: tensor<200xbf16>) -> (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<?x200xbf16>) {
  %o = coda.linear %y, %wo : (tensor<?x136xbf16>, tensor<200x136xbf16>) -> tensor<?x200xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  %p = coda.partial_reduce %x1 {kind = "sum_squares"} : (tensor<?x200xbf16>) -> tensor<?x?xf32>
  %r = coda.reduce_partials %p {kind = "rstd", count = 200 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %h = coda.mul %x1, %g : (tensor<?x200xbf16>, tensor<200xbf16>) -> tensor<?x200xbf16>
  return %x1, %r, %h : tensor<?x200xbf16>, tensor<?x1xf32>, tensor<?x200xbf16>
}
