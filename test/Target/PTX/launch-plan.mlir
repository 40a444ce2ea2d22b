// REQUIRES: ptxas
// --coda-launch-plan names where the plan goes; an op no kernel runs
// (attention) is a boundary step between the kernels, on named buffers.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx --coda-launch-plan=%t.json
// RUN: FileCheck %s < %t.json
// RUN: not coda-translate --coda-to-ptx %s -o %t.ptx --coda-launch-plan=%t.missing/plan.json 2>&1 | FileCheck %s --check-prefix=ERROR

// The bf16 result goes out by TMA stores: it is a tensor map of 64 x 64
// boxes.
// CHECK:      "kernels": [
// CHECK:          "arguments": [
// CHECK:              "tensor_map": "arg0"
// CHECK:              "tensor_map": "arg1"
// CHECK:              "rows": -1
// CHECK:            {
// CHECK-NEXT:         "box": [
// CHECK-NEXT:           64,
// CHECK-NEXT:           64
// CHECK-NEXT:         ],
// CHECK-NEXT:         "tensor_map": "t0"
// CHECK:          "name": "attend_gemm0",
// CHECK:          "persistent": true,
// CHECK:          "rows_per_tile": 256,
// CHECK:          "boundary": "coda.attention",
// CHECK-NEXT:     "operands": [
// CHECK-NEXT:       "t0",
// CHECK-NEXT:       "t0",
// CHECK-NEXT:       "t0"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "results": [
// CHECK-NEXT:       "t1"
// The second GEMM's residual x, an [M, W] epilogue input read at the
// output's columns, comes through the ring: a tensor map of 64 x 64 boxes
// after the rows argument, before the result's.
// CHECK:              "tensor_map": "t1"
// CHECK:              "tensor_map": "arg2"
// CHECK:              "rows": -1
// CHECK:            {
// CHECK-NEXT:         "box": [
// CHECK-NEXT:           64,
// CHECK-NEXT:           64
// CHECK-NEXT:         ],
// CHECK-NEXT:         "tensor_map": "arg0"
// CHECK:              "tensor_map": "t2"
// CHECK:          "name": "attend_gemm1",
// CHECK:      "results": [
// CHECK-NEXT:   "t2"

// ERROR: error: cannot write the launch plan '{{.*}}plan.json'
func.func @attend(%x: tensor<?x64xbf16>, %wq: tensor<64x64xbf16>, %wo: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %q = coda.linear %x, %wq : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %a = coda.attention %q, %q, %q {num_heads = 1 : i64, num_kv_heads = 1 : i64, head_dim = 64 : i64, seq_len = 8 : i64, causal = true} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %o = coda.linear %a, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %r = coda.add %o, %x : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %r : tensor<?x64xbf16>
}
