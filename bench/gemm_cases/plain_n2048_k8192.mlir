// A plain GEMM y = x wᵀ, N = 2048, K = 8192, bf16.
func.func @plain(%x: tensor<?x8192xbf16>, %w: tensor<2048x8192xbf16>) -> tensor<?x2048xbf16> {
  %y = coda.linear %x, %w : (tensor<?x8192xbf16>, tensor<2048x8192xbf16>) -> tensor<?x2048xbf16>
  return %y : tensor<?x2048xbf16>
}
