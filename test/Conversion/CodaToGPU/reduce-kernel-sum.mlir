// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A row sum finished from a GEMM epilogue's per-tile partials (the z·dz
// statistic of a norm gradient): a warp per row, each lane adding the
// partials it reads (lanes l, l + 32, ...; here ceil(200 / 128) = 2, the
// lanes past them counting 0), then across the lanes, five xor shuffles;
// the first lane stores. No epsilon, which only "rstd" and "mean_rstd" take.
// CHECK-LABEL: func.func @row_dot
//       CHECK:   coda.gemm
//       CHECK:     coda.partial_reduce
//       CHECK:   coda.reduce_partials {{.*}}coda.kernel = @coda_kernels::@row_dot_reduce0
//       CHECK: gpu.func @row_dot_reduce0
//       CHECK:   llvm.load
//       CHECK:   arith.select
//       CHECK:   arith.addf
// CHECK-COUNT-5:   gpu.shuffle  xor
//   CHECK-NOT:   math.rsqrt
//       CHECK:   scf.if
//       CHECK:     llvm.store
//       CHECK:   gpu.return
func.func @row_dot(%dy: tensor<?x64xbf16>, %w: tensor<64x200xbf16>, %z: tensor<?x200xbf16>) -> (tensor<?x200xbf16>, tensor<?x1xf32>) {
  %dz = coda.matmul %dy, %w : (tensor<?x64xbf16>, tensor<64x200xbf16>) -> tensor<?x200xbf16>
  %zdz = coda.mul %z, %dz : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  %p = coda.partial_reduce %zdz : (tensor<?x200xbf16>) -> tensor<?x?xf32>
  %s = coda.reduce_partials %p : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %dz, %s : tensor<?x200xbf16>, tensor<?x1xf32>
}

// More than 32 partials per lane (140000 columns: 1094 partials, 35 steps
// of 32 lanes) run as a loop over batches of 32 steps, each batch's 32
// loads issued before its first sum; every step is counted only where its
// tile is one of the row's, as the last batch passes the row's last tile.
// CHECK-LABEL: gpu.func @wide_row_dot_reduce0
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %c2{{.*}} step
//       CHECK:     arith.muli %{{.+}}, %c1024
// CHECK-COUNT-32:    llvm.load
//   CHECK-NOT:     llvm.load
// CHECK-COUNT-32:    arith.select
//       CHECK:     scf.yield
// CHECK-COUNT-5:   gpu.shuffle  xor
func.func @wide_row_dot(%dy: tensor<?x64xbf16>, %w: tensor<64x140000xbf16>, %z: tensor<?x140000xbf16>) -> (tensor<?x140000xbf16>, tensor<?x1xf32>) {
  %dz = coda.matmul %dy, %w : (tensor<?x64xbf16>, tensor<64x140000xbf16>) -> tensor<?x140000xbf16>
  %zdz = coda.mul %z, %dz : (tensor<?x140000xbf16>, tensor<?x140000xbf16>) -> tensor<?x140000xbf16>
  %p = coda.partial_reduce %zdz : (tensor<?x140000xbf16>) -> tensor<?x?xf32>
  %s = coda.reduce_partials %p : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %dz, %s : tensor<?x140000xbf16>, tensor<?x1xf32>
}
