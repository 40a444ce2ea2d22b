// y = silu(x wᵀ + bias) + residual, N = 384, K = 256, bf16: bias, SiLU and a
// residual tile in the epilogue.
func.func @fused(%x: tensor<?x256xbf16>, %w: tensor<384x256xbf16>, %b: tensor<384xbf16>, %r: tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x256xbf16>, tensor<384x256xbf16>, tensor<384xbf16>) -> tensor<?x384xbf16>
  %a = coda.silu %y : (tensor<?x384xbf16>) -> tensor<?x384xbf16>
  %s = coda.add %a, %r : (tensor<?x384xbf16>, tensor<?x384xbf16>) -> tensor<?x384xbf16>
  return %s : tensor<?x384xbf16>
}
