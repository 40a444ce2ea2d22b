// The canonical block's QKV weight gradient: 12 x 16 tiles of 256 x 128,
// which the planner splits over the rows in two.
func.func @wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16>
  return %dw : tensor<3072x2048xbf16>
}
