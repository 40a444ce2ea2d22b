// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %python -c "import json, sys; k = json.load(open(sys.argv[1]))['functions'][0]['kernels'][0]; print(k['name'], k['rows'], [a for a in k['arguments'] if 'rows' in a], k['arguments'][-1])" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A weight gradient dW = dyᵀ · x reads both operands as stored, [M, N] and
// [M, K], and reduces over their M rows: a GEMM with a_layout "km" and
// b_layout "kn". The tiles cover dW's static 200 x 136 (past the edges TMA
// fills with zeros and clips); the row argument is the function's M, from
// which the kernel counts its k-tiles (ceil(M / 64)). Two tiles leave most
// of 132 SMs idle, so the planner allows splitting the rows in up to four
// parts, and each launch takes the splits (1, 2 or 4) whose rounds of
// ceil(k-tiles / splits) + 8 k-tiles end first. Each 256-row A tile
// is four TMA boxes of 64 k-rows by 64 columns; both operands' descriptors
// are MN-major (leading byte offset 512, stride 64 at bit 32, the 128-byte
// swizzle) and advance 16 rows of 128 bytes (+128) per k16 step, and wgmma
// reads A and B transposed (col, row). After the mainloop a warpgroup
// counts its arrival at the tile (a device-scope atomic on the scratch,
// the kernel's last argument); an earlier arrival stores its accumulators
// and counts them behind a release fence, the last waits with acquire loads
// until three have, then adds them one slot at a time. A is loaded slab by
// slab already, so it takes no second map of 64-row boxes (as the last row
// tile of a GEMM over the tokens does): one map per operand.
// CHECK-LABEL: func.func @wgrad
//       CHECK:   coda.gemm %{{.*}}, [%{{.*}}] {a_layout = "km", b_layout = "kn", {{.*}}scratch_bytes = 786688 : i64, {{.*}}splits = 4 : i64, {{.*}}tensor_map_rows = array<i64: 64, 64>, tiles_n = 2 : i64}}
//       CHECK: gpu.func @wgrad_gemm0({{.*}}, %[[SCRATCH:.+]]: !llvm.ptr) kernel
//       CHECK:   %[[ROWS:.+]] = arith.index_cast %{{.*}} : i32 to index
//       CHECK:   %[[UP:.+]] = arith.addi %[[ROWS]], %c63
//       CHECK:   %[[KTILES:.+]] = arith.divui %[[UP]], %c64
//       CHECK:   %[[GRID:.+]] = gpu.grid_dim x
//       CHECK:   %[[UNSPLIT:.+]] = arith.muli %{{.*}}, %[[KTILES]]
//       CHECK:   %[[TWO:.+]] = arith.cmpi ult, %{{.*}}, %[[UNSPLIT]]
//       CHECK:   %[[SPLITS2:.+]] = arith.select %[[TWO]], %c2{{.*}}, %c1
//       CHECK:   %[[FOUR:.+]] = arith.cmpi ult
//       CHECK:   arith.select %[[FOUR]], %c4{{.*}}, %[[SPLITS2]]
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:   nvvm.wgmma.mma_async {{.*}}A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
//       CHECK:   llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
//       CHECK:   llvm.load %{{.*}} atomic syncscope("device") acquire
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       CHECK:   llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
//       CHECK:   llvm.fence syncscope("device") release
//       CHECK:   llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1,  1, 1,  1;
// The kernel's own rows are dW's 200, which size the grid; its row argument
// passes the function's M.
// PLAN: wgrad_gemm0 200 [{'rows': -1}] {'scratch': 786688}
func.func @wgrad(%dy: tensor<?x200xbf16>, %x: tensor<?x136xbf16>) -> tensor<200x136xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x200xbf16>, tensor<?x136xbf16>) -> tensor<200x136xbf16>
  return %dw : tensor<200x136xbf16>
}
