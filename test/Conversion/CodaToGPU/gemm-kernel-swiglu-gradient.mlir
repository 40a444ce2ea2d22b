// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python %coda_src_root/bench/ptx_ops.py %t.ptx --top 60 > %t.ops
// RUN: FileCheck %s < %t.ops
// RUN: grep -q "sub.f32:128 " %t.ops

// SwiGLU's gradient in the epilogue of the dgrad that makes d(SwiGLU)
// (a consumer's batch loop takes 128 elements per thread): dg = SiLU'(g) ·
// dy · u, du = SiLU(g) · dy, the row sum of u · du + g · dg for the norm
// before the gate and up GEMMs, and the recomputed SwiGLU output. One
// tanh.approx per element for the sigmoid s that SiLU and its derivative
// share, and SiLU' as s + SiLU · (1 - s) (one subtraction, one fused
// multiply-add beside SiLU's own multiply): 7 multiplies, 3 fused
// multiply-adds, 1 subtraction and 1 addition per element (the row sum's;
// the kernel's other 8 additions are those sums across a quad).
// CHECK: swiglu_gradient_gemm0: {{[0-9]+}} | mul.f32:896 fma.rn.f32:384 {{.*}}add.f32:136 {{.*}}tanh.approx.f32:128
func.func @swiglu_gradient(%dy: tensor<?x64xbf16>, %wd: tensor<64x256xbf16>, %gate: tensor<?x256xbf16>, %up: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  %r:4 = coda.gemm %dy, [%wd] inputs(%up, %gate) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %u: tensor<?x256xf32>, %g: tensor<?x256xf32>):
    %m = coda.mul %acc, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %dg = coda.activation_grad %g, %m : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %gdg = coda.mul %g, %dg : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.swiglu %g, %acc : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %udu = coda.mul %u, %du : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %t = coda.add %udu, %gdg : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.partial_reduce %t : (tensor<?x256xf32>) -> tensor<?x?xf32>
    %a = coda.swiglu %g, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %s, %a : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x?xf32>, tensor<?x256xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>
}
