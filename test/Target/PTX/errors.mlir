// RUN: split-file %s %t
// RUN: not coda-translate --coda-to-ptx %t/no-gemm.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOGEMM
// RUN: not coda-translate --coda-to-ptx %t/no-kernel.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOKERNEL

// A function without GEMMs has no kernel to generate.
// NOGEMM: no-gemm.mlir:1:1: error: no coda.gemm to generate a kernel for

// An op left outside every epilogue has no kernel: reported on the op, not
// left to the caller in the launch plan.
// NOKERNEL: no-kernel.mlir:2:8: error: 'coda.rope' outside a GEMM epilogue has no GPU kernel yet; the generator runs coda.gemm, coda.reduce_partials, coda.norm_statistics, coda.rms_norm, coda.layer_norm, coda.rms_norm_grad_partials, coda.layer_norm_grad_partials, coda.sum_rows, coda.cross_entropy_from_partials, coda.cross_entropy_row_weights, elementwise maps, slices, concats and "half" RoPE, row-sum maps (which coda-form-maps makes of a coda.partial_reduce of sums read only by a coda.reduce_partials of sums), and leaves coda.attention to the caller

//--- no-gemm.mlir
func.func @identity(%a: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  return %a : tensor<?x64xbf16>
}

//--- no-kernel.mlir
func.func @no_kernel(%a: tensor<?x64xbf16>, %c: tensor<?x32xf32>, %s: tensor<?x32xf32>) -> tensor<?x64xbf16> {
  %y = coda.rope %a, %c, %s {head_dim = 64 : i64, style = "interleaved"} : (tensor<?x64xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
