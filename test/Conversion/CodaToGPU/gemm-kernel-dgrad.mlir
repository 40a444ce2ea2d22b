// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A dgrad product dx = dy · W reads W as it is stored, [K, N]: the matmul
// becomes a GEMM with b_layout "kn"; each 128-column B box of a k-tile is
// two TMA boxes of 64 k-rows by 64 columns (the weight's tensor map has
// 64-row boxes), whose descriptor is MN-major: the two 64-column swizzle
// atoms 8 KiB apart (leading byte offset 8192 >> 4 = 512 at bit 16), 1024
// bytes between groups of 8 k-rows (64 at bit 32), the 128-byte swizzle
// (bit 62); a k16 step moves 16 rows of 128 bytes (+128), and wgmma reads B
// transposed (row). N = 200 and K = 136 are no tile multiples: TMA fills
// past the edges with zeros.
// CHECK-LABEL: func.func @dgrad
//       CHECK:   coda.gemm %{{.*}}, [%{{.*}}] {b_layout = "kn", {{.*}}tensor_map_rows = array<i64: 256, 64, 64>, tiles_n = 2 : i64}}
//       CHECK: gpu.func @dgrad_gemm0
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<256x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   arith.constant 4611686293338849280 : i64
//       CHECK:   nvvm.wgmma.mma_async {{.*}}A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
//       CHECK:   arith.constant 128 : i64
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1,  1, 0,  1;
func.func @dgrad(%dy: tensor<?x136xbf16>, %w: tensor<136x200xbf16>) -> tensor<?x200xbf16> {
  %dx = coda.matmul %dy, %w : (tensor<?x136xbf16>, tensor<136x200xbf16>) -> tensor<?x200xbf16>
  return %dx : tensor<?x200xbf16>
}
