// The canonical block's QKV weight gradient in 12 x 16 tiles of 256 x 128
// (two consumers, pinned), which the planner splits over the rows in two.
func.func @wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, consumers = 2 : i64}} : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  ^bb0(%acc: tensor<3072x2048xf32>):
    coda.yield %acc : tensor<3072x2048xf32>
  }
  return %dw : tensor<3072x2048xbf16>
}
