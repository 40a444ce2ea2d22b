// A plain GEMM y = x wᵀ, N = 16384, K = 2048, bf16.
func.func @plain(%x: tensor<?x2048xbf16>, %w: tensor<16384x2048xbf16>) -> tensor<?x16384xbf16> {
  %y = coda.linear %x, %w : (tensor<?x2048xbf16>, tensor<16384x2048xbf16>) -> tensor<?x16384xbf16>
  return %y : tensor<?x16384xbf16>
}
