// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// The canonical block's QKV weight gradient: 12 x 16 tiles of 256 rows
// would fill 73% of 132 SMs, 8 x 16 tiles of 384 rows fill 97% of one
// wave, so the planner gives the CTA three consumer warpgroups and no
// split. Four warpgroups share the registers as with an epilogue
// warpgroup: the producer gives up to 32, the consumers take 160. A ring
// step is 48 KiB of A, six 64 x 64 boxes read MN-major, and the weight's
// 16 KiB after the ring's A boxes (3 x 48 KiB); 12 warps release each slot.
// Consumer c reads its two slabs from A's box at c x 16 KiB. Tiles divide
// dW's static 3072 rows, so every consumer has rows: no k-tile is skipped.
// CHECK-LABEL: func.func @qkv_wgrad
//       CHECK:   coda.launch = {block = 512 : i64, {{.*}}rows_per_tile = 384 : i64, schedule = "cooperative", shared_bytes = 222208 : i64, stages = 3 : i64, tensor_map_rows = array<i64: 64, 64>, tiles_n = 16 : i64}
//       CHECK: gpu.func @qkv_wgrad_gemm0
//  CHECK-SAME:   known_block_size = array<i32: 512, 1, 1>
//       CHECK:   nvgpu.mbarrier.init %[[EMPTY:.+]][%{{.*}}], %c12
//       CHECK:   nvvm.setmaxregister  decrease 32
//       CHECK:   arith.muli %[[SLOT:.+]], %c49152 : index
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   arith.addi %{{.*}}, %c8192 : index
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   arith.addi %{{.*}}, %c16384 : index
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   arith.addi %{{.*}}, %c32768 : index
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   %c147456
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvvm.setmaxregister  increase 160
//       CHECK:   %[[CONSUMER:.+]] = arith.subi %{{[0-9]+}}, %c1{{(_[0-9]+)?}} : index
//       CHECK:   %[[ROWS:.+]] = arith.muli %[[CONSUMER]], %c128
//       CHECK:   %[[BYTES:.+]] = arith.muli %[[ROWS]], %c128
//       CHECK:   arith.remui %{{.*}}, %c3
//       CHECK:   %[[SLOTBYTES:.+]] = arith.muli %{{.*}}, %c49152
//       CHECK:   arith.addi %[[SLOTBYTES]], %[[BYTES]]
//       CHECK:   nvvm.wgmma.mma_async {{.*}}A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// Each consumer stages its rows' 64-column chunks after the ring (192 KiB),
// 8 KiB each.
//       CHECK:   arith.muli %[[CONSUMER]], %c8192
//       CHECK:   nvgpu.tma.async.store
//   CHECK-NOT:   llvm.atomicrmw
// PTXAS: Compiling entry function 'qkv_wgrad_gemm0'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @qkv_wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16>
  return %dw : tensor<3072x2048xbf16>
}
