// RUN: coda-opt %s --split-input-file --coda-plan-kernels | FileCheck %s --check-prefix=PLAN
// RUN: coda-opt %s --split-input-file --coda-plan-kernels --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPILLS

// A cooperative GEMM over a dynamic row count whose width is a multiple of
// 256 gets, beside its kernel of 256 x 128 tiles, a kernel of 128 x 256
// tiles (NAME_wide), which the launch plan gives as its "wide" kernel and
// the runtime launches where those tiles fill fewer rounds. The tall kernel
// loads one weight box per k-tile; the wide one a second, the next 128
// columns', into the second half of the slot's A box, which the consumers'
// second slab reads. Neither predicates a load on the shape.

// PLAN-LABEL: func.func @rows_unknown
//       PLAN:   wide_tiles = true
// CHECK-LABEL: func.func @rows_unknown
//       CHECK:   coda.kernel = @coda_kernels::@rows_unknown_gemm0, coda.launch = {{{.*}}rows_per_tile = 256 : i64{{.*}}tiles_n = 4 : i64}
//  CHECK-SAME:   coda.wide_launch = {{{.*}}name = "rows_unknown_gemm0_wide", partial_columns = 4 : i64, persistent = true, {{.*}}rows_per_tile = 128 : i64{{.*}}tiles_n = 2 : i64}
// CHECK-LABEL: gpu.func @rows_unknown_gemm0(
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//   CHECK-NOT:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvvm.wgmma.mma_async
//   CHECK-NOT:   nvgpu.tma.async.load {{.*}}predicate =
// CHECK-LABEL: gpu.func @rows_unknown_gemm0_wide(
//   CHECK-NOT:   nvgpu.tma.async.load {{.*}}predicate =
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvvm.wgmma.mma_async
//       CHECK:   gpu.return
// PTX: .entry rows_unknown_gemm0(
// PTX: .entry rows_unknown_gemm0_wide(
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
// 264 of 128 x 256 (2); 300 rows fill one round either way. The kernel of
// wide tiles then is the GEMM's only one.
// PLAN-LABEL: func.func @rows_4097
//       PLAN:   wide_tiles = true
// CHECK-LABEL: func.func @rows_4097
//       CHECK:   coda.kernel = @coda_kernels::@rows_4097_gemm0, coda.launch = {{{.*}}partial_columns = 16 : i64{{.*}}rows_per_tile = 128 : i64{{.*}}tiles_n = 8 : i64}
//   CHECK-NOT:   coda.wide_launch
// CHECK-LABEL: gpu.func @rows_4097_gemm0(
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   gpu.return
//   CHECK-NOT:   gpu.func @rows_4097_gemm0_wide
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
//   CHECK-NOT:   coda.wide_launch
// CHECK-LABEL: gpu.func @rows_300_gemm0(
//       CHECK:   gpu.return
//   CHECK-NOT:   gpu.func @rows_300_gemm0_wide
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
// CHECK-LABEL: func.func @pinned_off
//   CHECK-NOT:   coda.wide_launch
// CHECK-LABEL: gpu.func @pinned_off_gemm0(
//       CHECK:   gpu.return
//   CHECK-NOT:   gpu.func @pinned_off_gemm0_wide
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
// CHECK-LABEL: gpu.func @epilogue_warpgroup_gemm0_wide(
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvgpu.tma.async.load {{.*}}memref<128x64xbf16
//       CHECK:   nvvm.setmaxregister  increase 160
//       CHECK:   nvvm.setmaxregister  increase 160
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

// -----

// A GEMM whose last row tile splits, with MN-major weights (a dgrad): its
// tall kernel splits, taking scratch; the wide one splits nothing.
// CHECK-LABEL: func.func @split_mn_major
//       CHECK:   coda.launch = {{{.*}}scratch_bytes = {{[0-9]+}} : i64{{.*}}splits = 2 : i64
//  CHECK-SAME:   coda.wide_launch = {{{.*}}name = "split_mn_major_gemm0_wide"
//   CHECK-NOT:   splits
//  CHECK-SAME:   }
// CHECK-LABEL: gpu.func @split_mn_major_gemm0_wide(
//       CHECK:   gpu.return
func.func @split_mn_major(%dy: tensor<?x64xbf16>, %w: tensor<64x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %dy, [%w] {b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, splits = 2 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<64x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}
