// A dgrad product dx = dy · W, W read as [K, N] (b_layout "kn"): N = 2048
// output columns, K = 16384 (the forward's output features), bf16.
func.func @dgrad(%dy: tensor<?x16384xbf16>, %w: tensor<16384x2048xbf16>) -> tensor<?x2048xbf16> {
  %dx = coda.matmul %dy, %w : (tensor<?x16384xbf16>, tensor<16384x2048xbf16>) -> tensor<?x2048xbf16>
  return %dx : tensor<?x2048xbf16>
}
