// RUN: coda-opt %s --split-input-file --coda-plan-kernels | FileCheck %s --check-prefix=PLAN
// RUN: coda-opt %s --split-input-file --coda-plan-kernels --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPILLS

// A cooperative GEMM over the rows whose width is a multiple of 256 may run
// a launch in 128 x 256 tiles: the launch compares the rounds of both
// shapes on its grid, and each role derives the shape from that choice
// where it uses it (an opaque copy, not hoisted across its loop). The
// producer loads a wide tile's second 128 columns, predicated, into the
// second half of the slot's A box; the consumers' second slab reads them.

// PLAN-LABEL: func.func @rows_unknown
//       PLAN:   wide_tiles = true
// The launch plan notes it; the grid is the same.
// CHECK-LABEL: func.func @rows_unknown
//       CHECK:   coda.launch = {{{.*}}tiles_n = 4 : i64, wide_tiles = true}
// CHECK-LABEL: gpu.func @rows_unknown_gemm0
//       CHECK:   arith.cmpi ult
//       CHECK:   llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
//       CHECK:   nvgpu.tma.async.load {{.*}}predicate =
//       CHECK:   nvvm.wgmma.mma_async
//       CHECK:   gpu.return
// PTX-LABEL: .entry rows_unknown_gemm0(
//       PTX:   @%p{{[0-9]+}} cp.async.bulk.tensor.2d.shared::cluster
// SPILLS-NOT: {{[1-9][0-9]* bytes spill}}
func.func @rows_unknown(%a: tensor<?x64xbf16>, %b: tensor<512x64xbf16>, %r: tensor<?x512xbf16>) -> tensor<?x512xbf16> {
  %y = coda.gemm %a, [%b] inputs(%r) : (tensor<?x64xbf16>, tensor<512x64xbf16>, tensor<?x512xbf16>) -> tensor<?x512xbf16> {
  ^bb0(%acc: tensor<?x512xf32>, %res: tensor<?x512xf32>):
    %s = coda.add %acc, %res : (tensor<?x512xf32>, tensor<?x512xf32>) -> tensor<?x512xf32>
    coda.yield %s : tensor<?x512xf32>
  }
  return %y : tensor<?x512xbf16>
}

// -----

// A static row count widens only where wide tiles take fewer rounds of 132
// SMs: 4097 rows by 2048 columns are 272 tiles of 256 x 128 (3 rounds) and
// 264 of 128 x 256 (2); 300 rows fill one round either way.
// PLAN-LABEL: func.func @rows_4097
//       PLAN:   wide_tiles = true
func.func @rows_4097(%a: tensor<4097x64xbf16>, %b: tensor<2048x64xbf16>) -> tensor<4097x2048xbf16> {
  %y = coda.gemm %a, [%b] : (tensor<4097x64xbf16>, tensor<2048x64xbf16>) -> tensor<4097x2048xbf16> {
  ^bb0(%acc: tensor<4097x2048xf32>):
    coda.yield %acc : tensor<4097x2048xf32>
  }
  return %y : tensor<4097x2048xbf16>
}

// -----

// PLAN-LABEL: func.func @rows_300
//       PLAN:   wide_tiles = false
// CHECK-LABEL: func.func @rows_300
//   CHECK-NOT:   wide_tiles = true
// CHECK-LABEL: gpu.func @rows_300_gemm0
//   CHECK-NOT:   llvm.inline_asm
//   CHECK-NOT:   nvgpu.tma.async.load {{.*}}predicate =
//       CHECK:   gpu.return
func.func @rows_300(%a: tensor<300x64xbf16>, %b: tensor<512x64xbf16>) -> tensor<300x512xbf16> {
  %y = coda.gemm %a, [%b] : (tensor<300x64xbf16>, tensor<512x64xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%acc: tensor<300x512xf32>):
    coda.yield %acc : tensor<300x512xf32>
  }
  return %y : tensor<300x512xbf16>
}

// -----

// A plan may turn them off.
// PLAN-LABEL: func.func @pinned_off
//       PLAN:   wide_tiles = false
// CHECK-LABEL: gpu.func @pinned_off_gemm0
//   CHECK-NOT:   llvm.inline_asm
//       CHECK:   gpu.return
func.func @pinned_off(%a: tensor<?x64xbf16>, %b: tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = false}} : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  ^bb0(%acc: tensor<?x512xf32>):
    coda.yield %acc : tensor<?x512xf32>
  }
  return %y : tensor<?x512xbf16>
}

// -----

// With an epilogue warpgroup, and concat pieces that meet on a 256-column
// boundary: both halves of a wide tile run one range's epilogue, which the
// epilogue warpgroup runs for each consumer's one slab of rows.
// PLAN-LABEL: func.func @epilogue_warpgroup
//       PLAN:   schedule = "epilogue-warpgroup", {{.*}}wide_tiles = true
// CHECK-LABEL: gpu.func @epilogue_warpgroup_gemm0
//       CHECK:   nvgpu.tma.async.load {{.*}}predicate =
//       CHECK:   nvvm.setmaxregister  increase 160
//       CHECK:   nvvm.setmaxregister  increase 160
//       CHECK:   llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
//       CHECK:   gpu.return
func.func @epilogue_warpgroup(%a: tensor<?x64xbf16>, %b: tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "epilogue-warpgroup", stages = 4 : i64}} : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  ^bb0(%acc: tensor<?x512xf32>):
    %l = coda.slice %acc {offset = 0 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %r = coda.slice %acc {offset = 256 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %s = coda.silu %r : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %c = coda.concat %l, %s : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x512xf32>
    coda.yield %c : tensor<?x512xf32>
  }
  return %y : tensor<?x512xbf16>
}
