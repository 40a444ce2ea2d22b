// A dgrad product dx = dy · W, W read as [K, N] (b_layout "kn"): N = 2048
// output columns, K = 3072 (the forward's output features), bf16.
func.func @dgrad(%dy: tensor<?x3072xbf16>, %w: tensor<3072x2048xbf16>) -> tensor<?x2048xbf16> {
  %dx = coda.matmul %dy, %w : (tensor<?x3072xbf16>, tensor<3072x2048xbf16>) -> tensor<?x2048xbf16>
  return %dx : tensor<?x2048xbf16>
}
