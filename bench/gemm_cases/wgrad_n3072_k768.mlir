// The GPT-2 MLP's first weight gradient, dW = dyᵀ · x over the M rows:
// dW is [3072, 768], 12 x 6 = 72 tiles of 256 x 128 on 132 SMs, so the
// planner allows four splits and each launch chooses by its row count.
func.func @wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x768xbf16>) -> tensor<3072x768xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x3072xbf16>, tensor<?x768xbf16>) -> tensor<3072x768xbf16>
  return %dw : tensor<3072x768xbf16>
}
