// The O-projection kernel of the canonical block and the reduction that
// finishes its partial sums of squares into rstd for the next GEMM.
func.func @block(%y: tensor<?x2048xbf16>, %wo: tensor<2048x2048xbf16>, %x0: tensor<?x2048xbf16>, %g: tensor<2048xbf16>) -> (tensor<?x2048xbf16>, tensor<?x1xf32>, tensor<?x2048xbf16>) {
  %o = coda.linear %y, %wo : (tensor<?x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<?x2048xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  %p = coda.partial_reduce %x1 {kind = "sum_squares"} : (tensor<?x2048xbf16>) -> tensor<?x?xf32>
  %r = coda.reduce_partials %p {kind = "rstd", count = 2048 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %h = coda.mul %x1, %g : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
  return %x1, %r, %h : tensor<?x2048xbf16>, tensor<?x1xf32>, tensor<?x2048xbf16>
}
