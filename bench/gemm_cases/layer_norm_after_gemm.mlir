// LayerNorm after a GEMM, before another: the first GEMM's epilogue gives
// per-tile sums and centered sums of squares of y and h = y * gamma, a
// reduction combines them into the mean and rstd, and the second GEMM
// applies rstd and the rank-one mean correction (with W2 gamma and W2 beta
// from two one-row GEMMs).
func.func @ln_after(%x: tensor<?x256xbf16>, %w1: tensor<256x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>, %w2: tensor<128x256xbf16>) -> tensor<?x128xbf16> {
  %y = coda.linear %x, %w1 : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x256xbf16>
  %h = coda.layer_norm %y, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16>
  %z = coda.linear %h, %w2 : (tensor<?x256xbf16>, tensor<128x256xbf16>) -> tensor<?x128xbf16>
  return %z : tensor<?x128xbf16>
}
