// A plain GEMM y = x wᵀ, N = 3072, K = 2048, bf16.
func.func @plain(%x: tensor<?x2048xbf16>, %w: tensor<3072x2048xbf16>) -> tensor<?x3072xbf16> {
  %y = coda.linear %x, %w : (tensor<?x2048xbf16>, tensor<3072x2048xbf16>) -> tensor<?x3072xbf16>
  return %y : tensor<?x3072xbf16>
}
