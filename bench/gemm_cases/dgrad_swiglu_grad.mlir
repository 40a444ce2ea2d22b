// The SwiGLU gradient in the dgrad epilogue of the down projection, as
// coda-generate-backward writes it for the canonical block: da = dd · Wd
// (N = 8192, K = 2048), then dgate = silu'(gate) · (da · up) and
// dup = silu(gate) · da, both stored, bf16.
func.func @dgrad(%dd: tensor<?x2048xbf16>, %wd: tensor<2048x8192xbf16>,
                 %gate: tensor<?x8192xbf16>, %up: tensor<?x8192xbf16>)
    -> (tensor<?x8192xbf16>, tensor<?x8192xbf16>) {
  %da = coda.matmul %dd, %wd : (tensor<?x2048xbf16>, tensor<2048x8192xbf16>) -> tensor<?x8192xbf16>
  %gated = coda.mul %da, %up : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
  %dgate = coda.activation_grad %gate, %gated {activation = "silu"} : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
  %dup = coda.swiglu %gate, %da : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
  return %dgate, %dup : tensor<?x8192xbf16>, tensor<?x8192xbf16>
}
