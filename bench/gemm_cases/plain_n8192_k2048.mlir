// A plain GEMM y = x wᵀ, N = 8192, K = 2048, bf16.
func.func @plain(%x: tensor<?x2048xbf16>, %w: tensor<8192x2048xbf16>) -> tensor<?x8192xbf16> {
  %y = coda.linear %x, %w : (tensor<?x2048xbf16>, tensor<8192x2048xbf16>) -> tensor<?x8192xbf16>
  return %y : tensor<?x8192xbf16>
}
