// RUN: coda-opt %s --split-input-file --coda-plan-kernels --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; k = json.load(open(sys.argv[1]))['functions'][0]['kernels'][0]; print(k['name'], k['splits'], k['arguments'][-1])" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A cooperative GEMM over the rows with a long reduction (K = 4096, 64
// k-tiles) may split its last row tile's k-tiles: at a row count just past
// a multiple of 256 that row tile's tiles would take a round of their own.
// The planner allows the most splits whose split units fit one wave (8 for
// 2 column tiles); each launch chooses from its rows and grid how many it
// takes (1 where the whole tiles fill their last round). The kernel's
// last argument is its scratch: two counters per column tile and consumer,
// then 7 slots of 64 KiB per column tile and consumer. After a split
// unit's mainloop each consumer warpgroup counts its arrival; an earlier
// arrival stores the accumulators of its slabs that hold rows, counts
// them, and releases the residual's ring steps unread; the last adds the
// others' slabs that hold rows and runs the epilogue. A whole tile runs
// the epilogue on its own accumulators.
// CHECK-LABEL: func.func @long_k
//       CHECK:   coda.gemm {{.*}}coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 8 : i64, stages = 4 : i64, wide_tiles = true}
//       CHECK: gpu.func @long_k_gemm0({{.*}}, %[[SCRATCH:.+]]: !llvm.ptr) kernel
//       CHECK:   %[[GRID:.+]] = gpu.grid_dim x
//       CHECK:   arith.cmpi ult, %{{.*}}, %{{.*}} : index
//       CHECK:   %[[TWO:.+]] = arith.select %{{.*}}, %c2{{.*}}, %c1
//       CHECK:   %[[FOUR:.+]] = arith.select %{{.*}}, %c4{{.*}}, %[[TWO]]
//       CHECK:   %[[EIGHT:.+]] = arith.select %{{.*}}, %c8{{.*}}, %[[FOUR]]
//       CHECK:   arith.select %{{.*}}, %[[EIGHT]], %c1
//       CHECK:   nvvm.wgmma.mma_async
//       CHECK:   %[[MEET:.+]]:3 = scf.if %{{.*}} -> (i1, !llvm.struct
//       CHECK:     llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
//       CHECK:     llvm.load %{{.*}} atomic syncscope("device") acquire
//       CHECK:     scf.if %{{.*}} -> (!llvm.struct
// The slab's loop over the slots carries the slot's address and steps it
// by a slot (2 consumers x 64 KiB of f32).
//       CHECK:       scf.for %{{.*}} iter_args(%{{.*}}, %[[SLOT:.+]] = %{{.*}}) -> (!llvm.struct<{{.*}}>, !llvm.ptr)
//       CHECK:         llvm.getelementptr %[[SLOT]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       CHECK:         arith.constant 32768 : index
//       CHECK:         %[[NEXT:.+]] = llvm.getelementptr %[[SLOT]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       CHECK:         scf.yield %{{.*}}, %[[NEXT]]
//       CHECK:     scf.if %{{.*}} {
//       CHECK:       llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
//       CHECK:     llvm.fence syncscope("device") release
//       CHECK:   } else {
//  CHECK-NEXT:     %[[WHOLE:.+]] = arith.constant true
//  CHECK-NEXT:     scf.yield %[[WHOLE]]
//       CHECK:   scf.if %[[MEET]]#0 {
//       CHECK:     nvgpu.tma.async.store
//       CHECK:   } else {
//       CHECK:     nvgpu.mbarrier.try_wait.parity
//       CHECK:     nvgpu.mbarrier.arrive
//       CHECK:     nvgpu.mbarrier.try_wait.parity
//       CHECK:     nvgpu.mbarrier.arrive
//       CHECK:     nvvm.bar.warp.sync
// PLAN: long_k_gemm0 8 {'scratch': 1835264}
func.func @long_k(%x: tensor<?x4096xbf16>, %w: tensor<256x4096xbf16>, %r: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%r) : (tensor<?x4096xbf16>, tensor<256x4096xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %ri: tensor<?x256xf32>):
    %s = coda.add %acc, %ri : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %s : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// 32 k-tiles: the meeting would cost more than the split saves
// (bench/NOTES.md §73), so the planner does not split; a plan may pin it.
// CHECK-LABEL: func.func @short_k
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
//   CHECK-NOT:   scratch_bytes
// CHECK-LABEL: func.func @short_k_pinned
//       CHECK:   scratch_bytes = 262400 : i64, {{.*}}splits = 2 : i64
func.func @short_k(%x: tensor<?x2048xbf16>, %w: tensor<256x2048xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] : (tensor<?x2048xbf16>, tensor<256x2048xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}
func.func @short_k_pinned(%x: tensor<?x2048xbf16>, %w: tensor<256x2048xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] {coda.plan = {schedule = "cooperative", stages = 4 : i64, splits = 2 : i64}} : (tensor<?x2048xbf16>, tensor<256x2048xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// 67 column tiles: two splits of the last row tile would not fit one wave
// of 132 SMs.
// CHECK-LABEL: func.func @wide
//       CHECK:   coda.plan = {{{.*}}splits = 1 : i64
func.func @wide(%x: tensor<?x4096xbf16>, %w: tensor<8576x4096xbf16>) -> tensor<?x8576xbf16> {
  %y = coda.gemm %x, [%w] : (tensor<?x4096xbf16>, tensor<8576x4096xbf16>) -> tensor<?x8576xbf16> {
  ^bb0(%acc: tensor<?x8576xf32>):
    coda.yield %acc : tensor<?x8576xf32>
  }
  return %y : tensor<?x8576xbf16>
}
