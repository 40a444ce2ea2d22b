// REQUIRES: ptxas
// The generated kernels are PTX for sm_90a that ptxas assembles without
// spills: register reallocation between the producer and the consumers,
// TMA loads, wgmma from shared-memory descriptors, the epilogue's math,
// the results staged in shared memory and sent out by TMA stores.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=CONTRACT < %t.ptx
// RUN: FileCheck %s --check-prefix=PRODUCER < %t.ptx
// RUN: FileCheck %s --check-prefix=DRAIN < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK: .target sm_90a
// CHECK: .extern .shared .align 1024 .b8 coda_smem[];
// CHECK-LABEL: .visible .entry fused_gemm0(
// CHECK: .maxntid 384, 1, 1
// CHECK: .minnctapersm 1
// CHECK: mbarrier.init.shared
// The consumers:
// CHECK: setmaxnreg.inc.sync.aligned.u32 240
// CHECK: mbarrier.try_wait.parity
// CHECK: wgmma.fence.sync.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 1
// CHECK: mbarrier.arrive.shared.b64
// CHECK: tanh.approx.f32
// CHECK: cp.async.bulk.wait_group.read 0;
// CHECK: bar.sync {{%r[0-9]+}}, 128;
// CHECK: cvt.rn.bf16x2.f32
// CHECK: st.shared.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync {{%r[0-9]+}}, 128;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK: cp.async.bulk.commit_group;
// The epilogue's multiplies and adds contract into fma (SiLU's product
// plus the residual):
// CONTRACT-LABEL: .visible .entry fused_gemm0(
// CONTRACT: fma.rn.f32
// The producer:
// PRODUCER-LABEL: .visible .entry fused_gemm0(
// PRODUCER: setmaxnreg.dec.sync.aligned.u32 24
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64
// PRODUCER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PRODUCER-LABEL: .visible .entry plain_gemm0(
// Before a consumer exits, its TMA stores complete:
// DRAIN-LABEL: .visible .entry fused_gemm0(
// DRAIN: cp.async.bulk.wait_group 0;
// DRAIN-LABEL: .visible .entry plain_gemm0(
// DRAIN: cp.async.bulk.wait_group 0;
// CHECK-LABEL: .visible .entry plain_gemm0(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// PTXAS-NOT: C7508
// PTXAS: Compiling entry function 'plain_gemm0' for 'sm_90a'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Compiling entry function 'fused_gemm0' for 'sm_90a'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// Bias, SiLU and a residual tile: the graph level is fused first.
func.func @fused(%x: tensor<?x256xbf16>, %w: tensor<384x256xbf16>, %b: tensor<384xbf16>, %r: tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x256xbf16>, tensor<384x256xbf16>, tensor<384xbf16>) -> tensor<?x384xbf16>
  %a = coda.silu %y : (tensor<?x384xbf16>) -> tensor<?x384xbf16>
  %s = coda.add %a, %r : (tensor<?x384xbf16>, tensor<?x384xbf16>) -> tensor<?x384xbf16>
  return %s : tensor<?x384xbf16>
}

// A plain GEMM at the Llama-3-1B O-projection shape.
func.func @plain(%x: tensor<?x2048xbf16>, %w: tensor<2048x2048xbf16>) -> tensor<?x2048xbf16> {
  %y = coda.linear %x, %w : (tensor<?x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<?x2048xbf16>
  return %y : tensor<?x2048xbf16>
}
