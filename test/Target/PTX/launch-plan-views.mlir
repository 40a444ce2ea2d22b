// REQUIRES: ptxas
// Reshapes are views in the launch plan, and a GEMM over a one-row operand
// runs over its own row, not the function's M.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.plan.json

// CHECK:      "kernels": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "alias": "t0",
// CHECK-NEXT:     "of": "arg0"
// CHECK:          "name": "rank_one_gemm0",
// CHECK:          "rows": 1,
// CHECK:          "rows_per_tile": 256,
// CHECK:          "alias": "t2",
// CHECK-NEXT:     "of": "t1"
func.func @rank_one(%b: tensor<64xbf16>, %w: tensor<128x64xbf16>) -> tensor<128xf32> {
  %e = tensor.expand_shape %b [[0, 1]] output_shape [1, 64] : tensor<64xbf16> into tensor<1x64xbf16>
  %g = coda.gemm %e, [%w] : (tensor<1x64xbf16>, tensor<128x64xbf16>) -> tensor<1x128xf32> {
  ^bb0(%acc: tensor<1x128xf32>):
    coda.yield %acc : tensor<1x128xf32>
  }
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<1x128xf32> into tensor<128xf32>
  return %c : tensor<128xf32>
}
