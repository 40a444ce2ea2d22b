// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A row sum finished from a GEMM epilogue's per-tile partials (the z·dz
// statistic of a norm gradient): a thread per row adds its partials; no
// epsilon, which only "rstd" and "mean_rstd" take.
// CHECK-LABEL: func.func @row_dot
//       CHECK:   coda.gemm
//       CHECK:     coda.partial_reduce
//       CHECK:   coda.reduce_partials {{.*}}coda.kernel = @coda_kernels::@row_dot_reduce0
//       CHECK: gpu.func @row_dot_reduce0
//       CHECK:   scf.for
//       CHECK:     arith.addf
//   CHECK-NOT:   math.rsqrt
//       CHECK:   gpu.return
func.func @row_dot(%dy: tensor<?x64xbf16>, %w: tensor<64x200xbf16>, %z: tensor<?x200xbf16>) -> (tensor<?x200xbf16>, tensor<?x1xf32>) {
  %dz = coda.matmul %dy, %w : (tensor<?x64xbf16>, tensor<64x200xbf16>) -> tensor<?x200xbf16>
  %zdz = coda.mul %z, %dz : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  %p = coda.partial_reduce %zdz : (tensor<?x200xbf16>) -> tensor<?x?xf32>
  %s = coda.reduce_partials %p : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %dz, %s : tensor<?x200xbf16>, tensor<?x1xf32>
}
