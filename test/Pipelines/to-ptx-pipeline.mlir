// REQUIRES: ptxas
// coda-to-ptx-pipeline takes a graph-level function to kernels in PTX: the
// host function stays at the coda level, its GEMM naming the kernel and its
// launch, and the kernel module becomes a gpu.binary of PTX text.
// coda-lower-to-nvvm-pipeline does the last step on kernel-level input.
//
// RUN: coda-opt %s --coda-to-ptx-pipeline | FileCheck %s
// RUN: coda-opt %s --coda-to-ptx-pipeline="schedule=pingpong" | FileCheck %s --check-prefix=PINGPONG
// RUN: coda-opt %s --coda-to-ptx-pipeline="group-rows=2" | FileCheck %s --check-prefix=GROUP
// RUN: not coda-opt %s --coda-to-ptx-pipeline="group-rows=0" 2>&1 | FileCheck %s --check-prefix=NOGROUP
// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | coda-opt --coda-lower-to-nvvm-pipeline | FileCheck %s

// CHECK-LABEL: func.func @plain
//       CHECK:   coda.gemm {{.*}}coda.kernel = @coda_kernels::@plain_gemm0
//       CHECK: gpu.binary @coda_kernels
//  CHECK-SAME:   #gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
//       CHECK:   .visible .entry plain_gemm0
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
//   CHECK-NOT: gpu.module
// PINGPONG: schedule = "pingpong"
// GROUP: coda.plan = {{{.*}}group_rows = 2 : i64
// NOGROUP: error: group-rows = 0: a tile group holds at least one row tile
func.func @plain(%x: tensor<?x256xbf16>, %w: tensor<128x256xbf16>) -> tensor<?x128xbf16> {
  %y = coda.linear %x, %w : (tensor<?x256xbf16>, tensor<128x256xbf16>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
