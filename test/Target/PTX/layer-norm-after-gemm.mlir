// REQUIRES: ptxas
// LayerNorm between two GEMMs: the first GEMM's epilogue stores per-tile
// sums and centered sums of squares (the tile's mean from a quad-wide sum,
// then a second pass over the thread's registers), a reduction combines
// them into the mean and rstd without the cancellation of E[x²] - mean²,
// and the second GEMM applies them; ptxas assembles every kernel without
// spills.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.ptxas 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t.ptxas
// RUN: FileCheck %s --check-prefix=SPILLS < %t.ptxas

// CHECK-LABEL: .visible .entry ln_after_gemm0(
// CHECK: shfl.sync.bfly.b32
// CHECK: div.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK-LABEL: .visible .entry ln_after_reduce0(
// CHECK: rsqrt.approx.f32
// CHECK-LABEL: .visible .entry ln_after_gemm3(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// PTXAS-DAG: Compiling entry function 'ln_after_gemm0' for 'sm_90a'
// PTXAS-DAG: Compiling entry function 'ln_after_reduce0' for 'sm_90a'
// PTXAS-DAG: Compiling entry function 'ln_after_gemm3' for 'sm_90a'
// No kernel spills (a check of its own, over all of ptxas's output):
// SPILLS-NOT: {{[1-9][0-9]* bytes spill}}
func.func @ln_after(%x: tensor<?x256xbf16>, %w1: tensor<256x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>, %w2: tensor<128x256xbf16>) -> tensor<?x128xbf16> {
  %y = coda.linear %x, %w1 : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x256xbf16>
  %h = coda.layer_norm %y, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16>
  %z = coda.linear %h, %w2 : (tensor<?x256xbf16>, tensor<128x256xbf16>) -> tensor<?x128xbf16>
  return %z : tensor<?x128xbf16>
}
