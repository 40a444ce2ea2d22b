// A weight gradient dW = dyᵀ · x, both read as stored ([M, 3072] and
// [M, 2048], a_layout "km", b_layout "kn"), reduced over the M rows:
// dW is [3072, 2048], bf16.
func.func @wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16>
  return %dw : tensor<3072x2048xbf16>
}
