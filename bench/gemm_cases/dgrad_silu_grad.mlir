// A dgrad product with the SiLU gradient in its epilogue: the backward of
// silu(x · W₁ᵀ) · ... through W₁, dx = silu'(x) · (dy · W), N = 2048,
// K = 8192, bf16.
func.func @dgrad(%dy: tensor<?x8192xbf16>, %w: tensor<8192x2048xbf16>, %x: tensor<?x2048xbf16>) -> tensor<?x2048xbf16> {
  %d = coda.matmul %dy, %w : (tensor<?x8192xbf16>, tensor<8192x2048xbf16>) -> tensor<?x2048xbf16>
  %g = coda.activation_grad %x, %d {activation = "silu"} : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  return %g : tensor<?x2048xbf16>
}
