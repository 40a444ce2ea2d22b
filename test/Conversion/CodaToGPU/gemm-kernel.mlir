// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="schedule=cooperative" | FileCheck %s
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s --check-prefix=AUTO
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="stages=2" | FileCheck %s --check-prefix=TWO
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="schedule=pingpong" | FileCheck %s --check-prefix=PINGPONG

// A GEMM with a bias, SiLU and a residual tile becomes one persistent
// kernel of three warpgroups: tensor maps and pointers in; each CTA walks
// its share of the ceil(M / 256) x 3 tiles; a producer warpgroup gives up
// registers and streams TMA boxes through a ring guarded by "full" and
// "empty" mbarriers; two consumer warpgroups take registers, run wgmma on
// two m64 slabs each (the tile's first k16 step overwrites the
// accumulators), release slots, and run the epilogue per register with
// loads; the bf16 result goes out through each consumer's 64 x 128 staging
// buffer (32 KiB after the 4-slot ring) and TMA stores of 64 x 64 boxes.
// The residual, an [M, W] tile read at the output's own columns, arrives as
// a tensor map: the producer loads it after each tile's k-tiles, one ring
// step of four 64 x 64 boxes (32 KiB) per slab, and the epilogue reads its
// pairs from shared memory, a slab at a time, then releases the slot.
// After its setup the kernel waits for the grids before it, so the runtime
// can launch it while they finish; the producer lets the next grid launch
// once it has issued its last loads.
// CHECK-LABEL: func.func @fused
//       CHECK:   coda.gemm {{.*}}{coda.kernel = @coda_kernels::@fused_gemm0, coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 0, 64>, persistent = true, result_tensor_map_rows = array<i64: 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 230400 : i64, stages = 4 : i64, tensor_map_rows = array<i64: 256, 128, 64>, tiles_n = 3 : i64}}
//       CHECK: gpu.module @coda_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
//       CHECK:   memref.global "public" @coda_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
//       CHECK:   gpu.func @fused_gemm0(%{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: i32, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
//       CHECK:     %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
//       CHECK:     %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
//       CHECK:     nvgpu.mbarrier.init %[[FULL]][%{{.+}}], %c1
//       CHECK:     nvgpu.mbarrier.init %[[EMPTY]][%{{.+}}], %c8
// The A map of 64-row boxes is prefetched with the others.
//       CHECK:     nvgpu.tma.prefetch.descriptor %{{.+}} : <tensor = memref<256x64xbf16, 3>
//       CHECK:     nvgpu.tma.prefetch.descriptor %{{.+}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:     nvgpu.tma.prefetch.descriptor %{{.+}} : <tensor = memref<128x64xbf16, 3>
//       CHECK:     nvvm.fence.mbarrier.init
//       CHECK:     gpu.barrier
//  CHECK-NEXT:     nvvm.griddepcontrol wait
//       CHECK:     nvvm.setmaxregister decrease 24
// Each role computes its units after its setmaxnreg. Units go in rounds
// of gridDim.x, the odd rounds in reverse: a CTA has one in every whole
// round, and one in the last where its position there is among the units
// left.
//       CHECK:     %[[CTA:.+]] = gpu.block_id x
//       CHECK:     %[[GRID:.+]] = gpu.grid_dim x
//       CHECK:     %[[ROUNDS:.+]] = arith.divui %[[UNITS:.+]], %[[GRID]]
//       CHECK:     %[[REVERSED:.+]] = arith.subi %{{.+}}, %[[CTA]]
//       CHECK:     %[[POSITION:.+]] = arith.select %{{.+}}, %[[REVERSED]], %[[CTA]]
//       CHECK:     %[[LEFT:.+]] = arith.remui %[[UNITS]], %[[GRID]]
//       CHECK:     arith.cmpi ult, %[[POSITION]], %[[LEFT]]
//       CHECK:       scf.for
// A unit loads A for its m64 slabs that hold rows, ceil((M - m0) / 64) of
// the tile's four, and arms each k-tile with their bytes and the weight
// box's: the whole box, or in the last row tile one 64-row box per slab.
//       CHECK:         %[[SLABS:.+]] = arith.minui %c4{{.*}}, %{{.+}} : index
//       CHECK:         %[[SLAB_BYTES:.+]] = arith.muli %[[SLABS]], %c8192
//       CHECK:         %[[BYTES:.+]] = arith.addi %[[SLAB_BYTES]], %c16384
//       CHECK:         scf.for
//       CHECK:           nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
//       CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %[[BYTES]]
//       CHECK:           %[[PARTIAL:.+]] = arith.cmpi ult, %[[SLABS]], %c4
//       CHECK:           scf.if %[[PARTIAL]] {
//       CHECK:             nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:             %[[SLAB1:.+]] = arith.cmpi ult, %c1{{.*}}, %[[SLABS]]
//       CHECK:             scf.if %[[SLAB1]] {
//       CHECK:               nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:             %[[SLAB2:.+]] = arith.cmpi ult, %c2{{.*}}, %[[SLABS]]
//       CHECK:             scf.if %[[SLAB2]] {
//       CHECK:               nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:             %[[SLAB3:.+]] = arith.cmpi ult, %c3{{.*}}, %[[SLABS]]
//       CHECK:             scf.if %[[SLAB3]] {
//       CHECK:               nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:           } else {
//       CHECK:             nvgpu.tma.async.load {{.*}} : <tensor = memref<256x64xbf16, 3>
//       CHECK:           }
//       CHECK:           nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
//       CHECK:         nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
//       CHECK:         nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %c32768
//   CHECK-COUNT-4:     nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:         nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %c32768
//   CHECK-COUNT-4:     nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:       nvvm.griddepcontrol launch_dependents
//       CHECK:     nvvm.setmaxregister increase 240
//       CHECK:       scf.for
// A consumer whose first row lies past M issues the wgmma of one k-tile of
// the four.
//       CHECK:         %[[HAS_ROWS:.+]] = arith.cmpi ult, %{{.+}}, %[[M:.+]] : index
//       CHECK:         %[[ISSUED:.+]] = arith.select %[[HAS_ROWS]], %c4, %c1{{.*}} : index
//       CHECK:         nvgpu.mbarrier.try_wait.parity %[[FULL]]
//       CHECK:         nvvm.wgmma.fence.aligned
//       CHECK:         nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
//       CHECK:         nvvm.wgmma.mma_async {{.*}}D[<f32>, <zero>]
//   CHECK-COUNT-6:     nvvm.wgmma.mma_async {{.*}}D[<f32>, <one>]
//       CHECK:         scf.for %{{.+}} = %c1{{.*}} to %[[ISSUED]]
//       CHECK:           nvgpu.mbarrier.try_wait.parity %[[FULL]]
//   CHECK-COUNT-8:       nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
//       CHECK:           nvvm.wgmma.commit.group.sync.aligned
//       CHECK:           nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK:           nvgpu.mbarrier.arrive %[[EMPTY]]
//       CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:         nvgpu.mbarrier.arrive %[[EMPTY]]
// The k-tiles it did not issue: each slot released once it is filled, and
// the warp reconverged after its first lane's arrive (the epilogue's named
// barrier is aligned).
//       CHECK:         scf.for %{{.+}} = %[[ISSUED]] to %c4
//       CHECK:           nvgpu.mbarrier.try_wait.parity %[[FULL]]
//       CHECK:           nvgpu.mbarrier.arrive %[[EMPTY]]
//       CHECK:         }
//       CHECK:           nvvm.bar.warp.sync %{{.+}} : i32
//       CHECK:         nvgpu.mbarrier.try_wait.parity %[[FULL]]
//       CHECK:         scf.if
//       CHECK:           nvvm.cp.async.bulk.wait_group 0 {read}
//       CHECK:         nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
//       CHECK:         llvm.extractvalue
//       CHECK:         llvm.load {{.*}} : !llvm.ptr -> vector<2xbf16>
//       CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xbf16>
// The epilogue's transcendentals are approximate: SiLU's sigmoid is
// 0.5 + 0.5 · tanh(x / 2) with tanh.approx.f32, its arithmetic afn.
//       CHECK:         arith.mulf {{.*}} fastmath<afn> : f32
//       CHECK:         llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.+}} : (f32) -> f32
//       CHECK:         arith.addf {{.*}} fastmath<afn> : f32
//       CHECK:         arith.truncf {{.*}} : f32 to bf16
//       CHECK:         llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<3>
//       CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//       CHECK:         nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
//       CHECK:         scf.if
//   CHECK-COUNT-2:       nvgpu.tma.async.store {{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>> -> <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b
//       CHECK:           nvvm.cp.async.bulk.commit.group
//       CHECK:         nvvm.bar.warp.sync
//       CHECK:         scf.if
//       CHECK:           nvgpu.mbarrier.arrive %[[EMPTY]]
//       CHECK:       nvvm.cp.async.bulk.wait_group 0{{$}}
// TWO: num_barriers = 2
func.func @fused(%x: tensor<?x256xbf16>, %w: tensor<384x256xbf16>, %b: tensor<384xbf16>, %r: tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  %y = coda.gemm %x, [%w] inputs(%b, %r) : (tensor<?x256xbf16>, tensor<384x256xbf16>, tensor<384xbf16>, tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  ^bb0(%acc: tensor<?x384xf32>, %bias: tensor<384xf32>, %res: tensor<?x384xf32>):
    %s = coda.add %acc, %bias : (tensor<?x384xf32>, tensor<384xf32>) -> tensor<?x384xf32>
    %a = coda.silu %s : (tensor<?x384xf32>) -> tensor<?x384xf32>
    %o = coda.add %a, %res : (tensor<?x384xf32>, tensor<?x384xf32>) -> tensor<?x384xf32>
    coda.yield %o : tensor<?x384xf32>
  }
  return %y : tensor<?x384xbf16>
}

// -----

// Every GEMM gets its own kernel, all in one kernel module.
// CHECK-LABEL: func.func @two
//       CHECK:   coda.kernel = @coda_kernels::@two_gemm0
//       CHECK:   coda.kernel = @coda_kernels::@two_gemm1
//       CHECK: gpu.module @coda_kernels
//       CHECK:   gpu.func @two_gemm0
//       CHECK:   gpu.func @two_gemm1
func.func @two(%x: tensor<?x64xbf16>, %w0: tensor<64x64xbf16>, %w1: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %a = coda.gemm %x, [%w0] : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  %b = coda.gemm %a, [%w1] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %b : tensor<?x32xbf16>
}

// -----

// The O-projection of the canonical block: a residual tile, h = x1 * gamma,
// and partial sums of squares combined across the quad of lanes that holds
// a row, stored once per row and N-tile.
// Its two bf16 results take 64-column chunks (2 x 2 x 8 KiB beside the
// 4-slot ring); each chunk goes out as one 64 x 64 box per result.
// CHECK-LABEL: func.func @oproj
//       CHECK:   result_tensor_map_rows = array<i64: 64, 0, 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 230400 : i64, stages = 4 : i64
//       CHECK: gpu.func @oproj_gemm0(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
//       CHECK:   scf.if
//   CHECK-COUNT-2: nvgpu.tma.async.store
//   CHECK-NEXT:    nvvm.cp.async.bulk.commit.group
//       CHECK:   gpu.shuffle  xor %{{.+}}, %{{.+}}, %{{.+}} : f32
//       CHECK:   gpu.shuffle  xor
//       CHECK:   scf.if
//       CHECK:     llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
func.func @oproj(%y: tensor<?x256xbf16>, %w: tensor<256x256xbf16>, %x0: tensor<?x256xbf16>, %g: tensor<256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  %x1, %p, %h = coda.gemm %y, [%w] inputs(%x0, %g) : (tensor<?x256xbf16>, tensor<256x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %res: tensor<?x256xf32>, %gamma: tensor<256xf32>):
    %x = coda.add %res, %acc : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    %m = coda.mul %x, %gamma : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    coda.yield %x, %s, %m : tensor<?x256xf32>, tensor<?x?xf32>, tensor<?x256xf32>
  }
  return %x1, %p, %h : tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>
}

// -----

// The reduction that finishes a GEMM's partial sums of squares into rstd:
// a warp per row, its lanes 0 and 1 reading the ceil(256 / 128) = 2
// partials (the others that row's last and counting 0), summed across the
// lanes; the first lane stores.
// CHECK-LABEL: func.func @finish
//       CHECK:   coda.reduce_partials {{.*}}coda.kernel = @coda_kernels::@finish_reduce0
//       CHECK: gpu.func @finish_reduce0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
//   CHECK-NOT:   scf.for
//       CHECK:   arith.minui %{{.+}}, %c1
//       CHECK:   llvm.load %{{.+}} : !llvm.ptr -> f32
//       CHECK:   arith.select
//       CHECK:   gpu.shuffle  xor
//       CHECK:   math.rsqrt
//       CHECK:   scf.if
//       CHECK:     llvm.store
func.func @finish(%y: tensor<?x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<?x1xf32> {
  %p = coda.gemm %y, [%w] : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x256xf32>):
    %s = coda.partial_reduce %acc {kind = "sum_squares"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %s : tensor<?x?xf32>
  }
  %r = coda.reduce_partials %p {kind = "rstd", count = 256 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// SwiGLU over gate and up weights: the gate and up rows of a tile come in
// as two B boxes, each consumer owns one m64 slab (2 x 64 registers), and
// gate column j and up column j sit in the same register of the two
// accumulators. The rstd of the thread's two rows is loaded before the
// tile's first k-tile, and not again in the epilogue.
// CHECK-LABEL: func.func @swiglu
//       CHECK:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 0>, persistent = true, result_tensor_map_rows = array<i64: 64>, rows_per_tile = 128 : i64, schedule = "cooperative", shared_bytes = 230400 : i64, stages = 4 : i64, tensor_map_rows = array<i64: 128, 128, 128, 64>, tiles_n = 2 : i64}
//       CHECK:   gpu.func @swiglu_gemm0(%{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: i32, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr)
// A 128-row tile: one or both of its slabs, and two weight boxes.
//       CHECK:     %[[SLABS:.+]] = arith.minui %c2{{.*}}, %{{.+}} : index
//       CHECK:     %[[SLAB_BYTES:.+]] = arith.muli %[[SLABS]], %c8192
//       CHECK:     %[[BYTES:.+]] = arith.addi %[[SLAB_BYTES]], %c32768
//       CHECK:     nvgpu.mbarrier.arrive.expect_tx {{.*}}, %[[BYTES]]
//       CHECK:     nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:     nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:     } else {
//       CHECK:     nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
//   CHECK-COUNT-2:   nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
//       CHECK:     scf.for
//   CHECK-COUNT-2:   llvm.load {{.+}} -> f32
//   CHECK-COUNT-8:   nvvm.wgmma.mma_async
//   CHECK-NOT:       nvvm.wgmma.mma_async
//       CHECK:       nvvm.wgmma.commit.group.sync.aligned
//       CHECK:       scf.for
//   CHECK-COUNT-8:     nvvm.wgmma.mma_async
//   CHECK-NOT:         nvvm.wgmma.mma_async
//       CHECK:         nvvm.wgmma.commit.group.sync.aligned
//   CHECK-NOT:       llvm.load {{.+}} -> f32
//       CHECK:       llvm.inline_asm "tanh.approx.f32
// Chosen by default (it computes, reads no tile and no per-column vector,
// and its result is a 16-bit tile), the epilogue runs on a fourth
// warpgroup: hand-off barriers of
// 128 arrivals each; the epilogue warpgroup waits for a consumer's tile,
// reads it from the hand-off buffer as 16 groups of 8 bf16 and frees the
// buffer before its sigmoid; each consumer, after its last wgmma, waits
// until the buffer is free, writes its 16 groups and signals them. The
// results are stored from registers.
// AUTO-LABEL: func.func @swiglu
//       AUTO:   coda.launch = {block = 512 : i64, dependent_launch = true, {{.*}}schedule = "epilogue-warpgroup", shared_bytes = 230400 : i64, stages = 4 : i64
//       AUTO:   gpu.func @swiglu_gemm0
//       AUTO:     nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
//       AUTO:     %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
//       AUTO:     %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
//       AUTO:     nvgpu.mbarrier.init %[[FULL]][%{{.+}}], %c128
//       AUTO:     nvgpu.mbarrier.init %[[EMPTY]][%{{.+}}], %c128
//       AUTO:     nvvm.setmaxregister decrease 32
//       AUTO:     nvvm.setmaxregister increase 160
//       AUTO:     nvgpu.mbarrier.try_wait.parity %[[FULL]]
// AUTO-COUNT-16:   llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xbf16>
//       AUTO:       nvgpu.mbarrier.arrive %[[EMPTY]]
//       AUTO:       llvm.inline_asm "tanh.approx.f32
//       AUTO:       llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr{{$}}
//       AUTO:     nvvm.setmaxregister increase 160
//       AUTO:       nvvm.wgmma.mma_async
//       AUTO:       nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// AUTO-COUNT-16:   llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
//       AUTO:       nvgpu.mbarrier.arrive %[[FULL]]
//   AUTO-NOT:       nvgpu.tma.async.store
func.func @swiglu(%h: tensor<?x64xbf16>, %wg: tensor<256x64xbf16>, %wu: tensor<256x64xbf16>, %r: tensor<?x1xf32>) -> tensor<?x256xbf16> {
  %y = coda.gemm %h, [%wg, %wu] inputs(%r) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<?x1xf32>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x512xf32>, %rstd: tensor<?x1xf32>):
    %s = coda.mul %acc, %rstd : (tensor<?x512xf32>, tensor<?x1xf32>) -> tensor<?x512xf32>
    %g = coda.slice %s {offset = 0 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %u = coda.slice %s {offset = 256 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %g, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %o : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// RoPE on the first 256 columns, the rest passed through: the concat's
// pieces are two column ranges with an epilogue each, chosen by the tile's
// first column; the rotation reads the partner register 32 columns away
// and the angle tables at the thread's columns.
// CHECK-LABEL: func.func @rope
//       CHECK:   gpu.func @rope_gemm0
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:     arith.cmpi uge, %{{.+}}, %c0
//       CHECK:     scf.if
//       CHECK:       llvm.load {{.*}} : !llvm.ptr -> vector<2xf32>
//       CHECK:       arith.subf
//       CHECK:       arith.addf
//       CHECK:     arith.cmpi uge, %{{.+}}, %c256
//       CHECK:     scf.if
//   CHECK-NOT:       arith.subf
//       CHECK:       llvm.store
func.func @rope(%x: tensor<?x64xbf16>, %w: tensor<384x64xbf16>, %c: tensor<?x32xf32>, %s: tensor<?x32xf32>) -> tensor<?x384xbf16> {
  %y = coda.gemm %x, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<384x64xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x384xbf16> {
  ^bb0(%acc: tensor<?x384xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>):
    %q = coda.slice %acc {offset = 0 : i64, size = 256 : i64} : (tensor<?x384xf32>) -> tensor<?x256xf32>
    %v = coda.slice %acc {offset = 256 : i64, size = 128 : i64} : (tensor<?x384xf32>) -> tensor<?x128xf32>
    %r = coda.rope %q, %cos, %sin {head_dim = 64 : i64} : (tensor<?x256xf32>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xf32>
    %o = coda.concat %r, %v : (tensor<?x256xf32>, tensor<?x128xf32>) -> tensor<?x384xf32>
    coda.yield %o : tensor<?x384xf32>
  }
  return %y : tensor<?x384xbf16>
}

// Ping-pong: each consumer takes every other tile of 128 rows (a 128-row A
// box, 32 KiB stages, 7 of them), and starts a tile's wgmma when the other
// consumer has issued its previous tile's ("turn" mbarriers, one arrive per
// warp). Its epilogue reads the residual from global memory.
// PINGPONG-LABEL: func.func @fused
//       PINGPONG:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 0, 0>, persistent = true, result_tensor_map_rows = array<i64: 0>, rows_per_tile = 128 : i64, schedule = "pingpong", shared_bytes = 230400 : i64, stages = 7 : i64, tensor_map_rows = array<i64: 128, 128, 64>, tiles_n = 3 : i64}
//       PINGPONG:   gpu.func @fused_gemm0
//       PINGPONG:     nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
//       PINGPONG:     nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
//       PINGPONG:     %[[TURN:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
//       PINGPONG:     nvgpu.mbarrier.init %{{.+}}[%{{.+}}], %c4 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
//       PINGPONG:     nvvm.setmaxregister increase 240
//       PINGPONG:       nvgpu.mbarrier.try_wait.parity %[[TURN]]
//       PINGPONG:       nvvm.wgmma.mma_async
//       PINGPONG:       nvgpu.mbarrier.arrive %[[TURN]]
// Its 7-slot ring leaves no room for staging: predicated global stores.
//   PINGPONG-NOT:       nvgpu.tma.async.store
//       PINGPONG:       scf.if
//       PINGPONG:         llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr{{$}}

// Under ping-pong a consumer's tile is one m64 slab of 64 rows: A has no
// second map of slab boxes, and every k-tile arms the whole stage (an 8 KiB
// A box, two 16 KiB weight boxes) and loads its boxes unconditionally.
// PINGPONG-LABEL: func.func @swiglu
//       PINGPONG:   rows_per_tile = 64 : i64, {{.*}}tensor_map_rows = array<i64: 64, 128, 128>, tiles_n = 2 : i64}
//       PINGPONG:   gpu.func @swiglu_gemm0(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32,
//       PINGPONG:     nvgpu.mbarrier.arrive.expect_tx {{.*}}, %c40960
//   PINGPONG-NOT:     scf.if
//       PINGPONG:     nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>
//   PINGPONG-NOT:     scf.if
//       PINGPONG:     nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
//   PINGPONG-NOT:     scf.if
//       PINGPONG:     nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>

// -----

// A "half" RoPE over 128-wide heads visits columns c and c + 64 together,
// so a chunk is all 128 columns; one result of them fits beside the ring
// (2 x 64 x 128 x 2 B = 32 KiB): the first goes out through shared memory
// and TMA, the second is stored from the registers.
// CHECK-LABEL: func.func @wide_heads
//       CHECK:   result_tensor_map_rows = array<i64: 64, 0>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 230400 : i64
//       CHECK:   gpu.func @wide_heads_gemm0
//       CHECK:     llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<3>
//       CHECK:     llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr{{$}}
//       CHECK:     nvgpu.tma.async.store
func.func @wide_heads(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %c: tensor<?x64xf32>, %s: tensor<?x64xf32>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %y:2 = coda.gemm %x, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?x64xf32>, tensor<?x64xf32>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %cos: tensor<?x64xf32>, %sin: tensor<?x64xf32>):
    %r = coda.rope %acc, %cos, %sin {head_dim = 128 : i64} : (tensor<?x256xf32>, tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x256xf32>
    coda.yield %r, %acc : tensor<?x256xf32>, tensor<?x256xf32>
  }
  return %y#0, %y#1 : tensor<?x256xbf16>, tensor<?x256xbf16>
}

// -----

// An f32 result is stored from the registers: 4-byte pairs of 4-byte
// elements are not a 16-bit TMA box's, so nothing is staged.
// CHECK-LABEL: func.func @wide
//       CHECK:   result_tensor_map_rows = array<i64: 0>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 197632 : i64
//       CHECK:   gpu.func @wide_gemm0
//   CHECK-NOT:     nvgpu.tma.async.store
//       CHECK:     scf.if
//       CHECK:       llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr{{$}}
func.func @wide(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<?x64xf32> {
  %y = coda.gemm %x, [%w] : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xf32> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  return %y : tensor<?x64xf32>
}

// -----

// A LayerNorm with no producing GEMM: one warp per row, a pass for the
// mean and one for the centered sum of squares and h = (x - mean) * gamma,
// each reduced across the warp with xor shuffles; the first lane stores
// rstd and the mean.
// CHECK-LABEL: func.func @statistics
//       CHECK:   coda.norm_statistics {{.*}}coda.kernel = @coda_kernels::@statistics_norm0, coda.launch = {block = 128 : i64, dependent_launch = true, persistent = false, rows_per_tile = 4 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK:   gpu.func @statistics_norm0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:     scf.for
//       CHECK:     gpu.shuffle  xor %{{.+}}, %c16_i32
//       CHECK:     arith.divf
//       CHECK:     scf.for
//       CHECK:       arith.subf
//       CHECK:       llvm.store
//       CHECK:     gpu.shuffle  xor
//       CHECK:     math.rsqrt
//       CHECK:     scf.if
//       CHECK:       llvm.store
//       CHECK:       llvm.store
func.func @statistics(%x: tensor<?x200xbf16>, %g: tensor<200xbf16>) -> (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %h, %r, %m = coda.norm_statistics %x, %g {kind = "layer_norm", epsilon = 1.0e-05 : f32} : (tensor<?x200xbf16>, tensor<200xbf16>) -> (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<?x1xf32>)
  return %h, %r, %m : tensor<?x200xbf16>, tensor<?x1xf32>, tensor<?x1xf32>
}
