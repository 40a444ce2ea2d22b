// A weight gradient dW = dyᵀ · x, both read as stored ([M, 2048] and
// [M, 8192], a_layout "km", b_layout "kn"), reduced over the M rows:
// dW is [2048, 8192], bf16.
func.func @wgrad(%dy: tensor<?x2048xbf16>, %x: tensor<?x8192xbf16>) -> tensor<2048x8192xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x2048xbf16>, tensor<?x8192xbf16>) -> tensor<2048x8192xbf16>
  return %dw : tensor<2048x8192xbf16>
}
