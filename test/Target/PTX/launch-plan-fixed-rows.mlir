// A static shape that ties the row count M of a function to a count R
// fixes M: the plan has "fixed_rows": R and "fixed_rows_by", the first
// kernel op that ties them and its location, for the runtime to refuse any
// other M. A function whose rows stay dynamic, or a weight gradient that
// reduces its dynamic rows into static ones, fixes nothing.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx --coda-launch-plan=%t.json
// RUN: FileCheck %s < %t.json

// CHECK:      "functions": [
// CHECK-NOT:  "fixed_rows"
// CHECK:      "fixed_rows": 4,
// CHECK-NEXT: "fixed_rows_by": "coda.scale at {{.*}}launch-plan-fixed-rows.mlir:[[# @LINE + 4]]:8",
// CHECK:      "rows": 4,
// CHECK:      "name": "refine",
func.func @refine(%x: tensor<?x16xbf16>) -> tensor<4x16xbf16> {
  %y = coda.scale %x {factor = 2.0 : f32} : (tensor<?x16xbf16>) -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}

// A GEMM's a of M rows and its result of 8: the op the plan names is the
// coda.gemm the matmul became, at the matmul's location.
// CHECK-NOT:  "fixed_rows"
// CHECK:      "fixed_rows": 8,
// CHECK-NEXT: "fixed_rows_by": "coda.gemm at {{.*}}launch-plan-fixed-rows.mlir:[[# @LINE + 3]]:8",
// CHECK:      "name": "refine_gemm",
func.func @refine_gemm(%a: tensor<?x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<8x128xbf16> {
  %y = coda.matmul %a, %b : (tensor<?x64xbf16>, tensor<64x128xbf16>) -> tensor<8x128xbf16>
  return %y : tensor<8x128xbf16>
}

// The first op that fixes M names it, through a named location: here the
// norm, after a scale that keeps M dynamic and before one that fixes M at
// another count (no M runs this function).
// CHECK-NOT:  "fixed_rows"
// CHECK:      "fixed_rows": 2,
// CHECK-NEXT: "fixed_rows_by": "coda.rms_norm at model.py:12:3",
// CHECK:      "name": "refine_norm",
func.func @refine_norm(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> (tensor<2x64xbf16>, tensor<3x64xbf16>) {
  %s = coda.scale %x {factor = 2.0 : f32} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %y = coda.rms_norm %s, %g {epsilon = 1.0e-5 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<2x64xbf16> loc("norm"("model.py":12:3))
  %z = coda.scale %x {factor = 2.0 : f32} : (tensor<?x64xbf16>) -> tensor<3x64xbf16>
  return %y, %z : tensor<2x64xbf16>, tensor<3x64xbf16>
}

// Without a source location the op alone.
// CHECK-NOT:  "fixed_rows"
// CHECK:      "fixed_rows": 4,
// CHECK-NEXT: "fixed_rows_by": "coda.scale",
// CHECK:      "name": "unknown_location",
func.func @unknown_location(%x: tensor<?x16xbf16>) -> tensor<4x16xbf16> {
  %y = coda.scale %x {factor = 2.0 : f32} : (tensor<?x16xbf16>) -> tensor<4x16xbf16> loc(unknown)
  return %y : tensor<4x16xbf16>
}

// CHECK-NOT:  "fixed_rows"
// CHECK:      "name": "dynamic",
func.func @dynamic(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.scale %x {factor = 2.0 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// A weight gradient reduces over its operands' M rows: its static result
// rows are its output features, not M.
// CHECK-NOT:  "fixed_rows"
// CHECK:      "rows": 128,
// CHECK:      "name": "weight_grad",
// CHECK-NOT:  "fixed_rows"
func.func @weight_grad(%dy: tensor<?x128xbf16>, %h: tensor<?x512xbf16>) -> tensor<128x512xbf16> {
  %dw = coda.transposed_matmul %dy, %h : (tensor<?x128xbf16>, tensor<?x512xbf16>) -> tensor<128x512xbf16>
  return %dw : tensor<128x512xbf16>
}
