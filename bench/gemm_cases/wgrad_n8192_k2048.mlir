// A weight gradient dW = dyᵀ · x, both read as stored ([M, 8192] and
// [M, 2048], a_layout "km", b_layout "kn"), reduced over the M rows:
// dW is [8192, 2048], bf16.
func.func @wgrad(%dy: tensor<?x8192xbf16>, %x: tensor<?x2048xbf16>) -> tensor<8192x2048xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x8192xbf16>, tensor<?x2048xbf16>) -> tensor<8192x2048xbf16>
  return %dw : tensor<8192x2048xbf16>
}
