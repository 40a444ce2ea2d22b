// The O-projection kernel of the canonical block: x1 = x0 + y Woᵀ, the
// partial sums of squares of x1 per 128-column tile, and h = x1 * gamma.
func.func @oproj(%y: tensor<?x2048xbf16>, %wo: tensor<2048x2048xbf16>, %x0: tensor<?x2048xbf16>, %g: tensor<2048xbf16>) -> (tensor<?x2048xbf16>, tensor<?x?xf32>, tensor<?x2048xbf16>) {
  %o = coda.linear %y, %wo : (tensor<?x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<?x2048xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  %p = coda.partial_reduce %x1 {kind = "sum_squares"} : (tensor<?x2048xbf16>) -> tensor<?x?xf32>
  %h = coda.mul %x1, %g : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  return %x1, %p, %h : tensor<?x2048xbf16>, tensor<?x?xf32>, tensor<?x2048xbf16>
}
