// Elementwise maps that no GEMM takes, each its own kernel: a residual sum
// of two [M, 2048] bf16 tensors, SwiGLU of two [M, 8192] tensors (the
// backward's recomputed activation), a per-column scale and a rank-one
// update with a per-row column (f32), on 2050 and 200 columns.
func.func @maps(%a: tensor<?x2048xbf16>, %b: tensor<?x2048xbf16>,
                %g: tensor<?x8192xbf16>, %u: tensor<?x8192xbf16>,
                %x: tensor<?x200xf32>, %col: tensor<?x1xf32>, %v: tensor<200xf32>)
    -> (tensor<?x2048xbf16>, tensor<?x8192xbf16>, tensor<?x200xf32>) {
  %s = coda.add %a, %b : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  %y = coda.swiglu %g, %u : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
  %o = coda.add_outer %x, %col, %v : (tensor<?x200xf32>, tensor<?x1xf32>, tensor<200xf32>) -> tensor<?x200xf32>
  return %s, %y, %o : tensor<?x2048xbf16>, tensor<?x8192xbf16>, tensor<?x200xf32>
}
