// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="schedule=epilogue-warpgroup" | FileCheck %s
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="schedule=epilogue-warpgroup stages=4" | FileCheck %s --check-prefix=PINNED

// The epilogue warpgroup loads the 16-bit [M, W] tiles its epilogue reads
// (gate and up) by TMA, one consumer's m64 slab at a time: two 64 x 64
// boxes per input into its input buffer after the hand-off buffer (32 KiB
// here), armed on a barrier of its own. The buffer takes a ring slot's
// room: 3 stages of 48 KiB + 32 KiB hand-off + 32 KiB inputs + 1 KiB. The
// producer loads no epilogue input through the ring. After a slab the
// warpgroup meets at its named barrier (3) before the buffer is loaded
// again, and each batch pins the row's running partial sum with an opaque
// move, so that its terms are not kept live to the tile's end.
// CHECK-LABEL: func.func @swiglu_grad
//       CHECK:   coda.launch = {block = 512 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 64, 64>, {{.*}}schedule = "epilogue-warpgroup", shared_bytes = 214016 : i64, stages = 3 : i64
//       CHECK:   gpu.func @swiglu_grad_gemm0
//       CHECK:     %[[INPUT:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>{{$}}
//       CHECK:     nvgpu.mbarrier.init %[[INPUT]][%{{.+}}], %c1
//       CHECK:     nvvm.setmaxregister decrease 32
//   CHECK-NOT:     nvgpu.mbarrier.arrive.expect_tx %{{.+}}, %c32768
//       CHECK:     nvvm.setmaxregister increase 160
//       CHECK:       nvgpu.mbarrier.arrive.expect_tx %[[INPUT]][%{{.+}}], %c32768
// CHECK-COUNT-4:       nvgpu.tma.async.load %{{.+}}, %[[INPUT]][%{{.+}}] to %{{.+}} : <tensor = memref<64x64xbf16, 3>
//       CHECK:       nvgpu.mbarrier.try_wait.parity %[[INPUT]]
//       CHECK:       llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=f,f"
//       CHECK:       nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
//       CHECK:       nvgpu.mbarrier.arrive.expect_tx %[[INPUT]][%{{.+}}], %c32768
//       CHECK:     nvvm.setmaxregister increase 160

// Four pinned stages leave no room for the input buffer: the epilogue
// warpgroup reads both inputs from global memory.
// PINNED-LABEL: func.func @swiglu_grad
//       PINNED:   coda.launch = {{{.*}}input_tensor_map_rows = array<i64: 0, 0>, {{.*}}schedule = "epilogue-warpgroup", shared_bytes = 230400 : i64, stages = 4 : i64
//   PINNED-NOT:   nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, 3>{{.*}}, <memorySpace = #gpu.address_space<workgroup>> ->
func.func @swiglu_grad(%dy: tensor<?x64xbf16>, %wd: tensor<64x256xbf16>, %gate: tensor<?x256xbf16>, %up: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  %r:2 = coda.gemm %dy, [%wd] inputs(%gate, %up) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x256xf32>, %g: tensor<?x256xf32>, %u: tensor<?x256xf32>):
    %m = coda.mul %acc, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %dg = coda.activation_grad %g, %m : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %p = coda.mul %g, %dg : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.partial_reduce %p {tile_n = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %dg, %s : tensor<?x256xf32>, tensor<?x?xf32>
  }
  return %r#0, %r#1 : tensor<?x256xbf16>, tensor<?x?xf32>
}

// -----

// Seven tile inputs: the buffer takes as many as leave the ring 3 stages
// (3 x 48 KiB + 32 KiB hand-off + 3 x 16 KiB + 1 KiB of 227 KiB); the
// epilogue warpgroup reads the other four from global memory.
// CHECK-LABEL: func.func @seven_inputs
//       CHECK:   coda.launch = {{{.*}}input_tensor_map_rows = array<i64: 64, 64, 64, 0, 0, 0, 0>, {{.*}}schedule = "epilogue-warpgroup", shared_bytes = 230400 : i64, stages = 3 : i64
func.func @seven_inputs(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %a: tensor<?x256xbf16>, %b: tensor<?x256xbf16>, %c: tensor<?x256xbf16>, %d: tensor<?x256xbf16>, %e: tensor<?x256xbf16>, %f: tensor<?x256xbf16>, %g: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%a, %b, %c, %d, %e, %f, %g) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %ia: tensor<?x256xf32>, %ib: tensor<?x256xf32>, %ic: tensor<?x256xf32>, %id: tensor<?x256xf32>, %ie: tensor<?x256xf32>, %if: tensor<?x256xf32>, %ig: tensor<?x256xf32>):
    %0 = coda.add %acc, %ia : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %1 = coda.add %0, %ib : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %2 = coda.add %1, %ic : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %3 = coda.add %2, %id : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %4 = coda.add %3, %ie : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %5 = coda.add %4, %if : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %6 = coda.add %5, %ig : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %6 : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// 128-row tiles (gate and up as two weight boxes, one m64 slab per
// consumer): the buffer holds a slab of one consumer's 64 rows, loaded at
// row m0 + 64 · consumer.
// CHECK-LABEL: func.func @swiglu_residual
//       CHECK:   coda.launch = {{{.*}}input_tensor_map_rows = array<i64: 64>, {{.*}}rows_per_tile = 128 : i64, schedule = "epilogue-warpgroup", shared_bytes = 197632 : i64, stages = 3 : i64
//       CHECK:     nvvm.setmaxregister increase 160
//       CHECK:       nvgpu.mbarrier.arrive.expect_tx %{{.+}}[%{{.+}}], %c16384
// CHECK-COUNT-2:     nvgpu.tma.async.load
func.func @swiglu_residual(%h: tensor<?x64xbf16>, %wg: tensor<256x64xbf16>, %wu: tensor<256x64xbf16>, %r: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %h, [%wg, %wu] inputs(%r) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x512xf32>, %res: tensor<?x256xf32>):
    %g = coda.slice %acc {offset = 0 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %u = coda.slice %acc {offset = 256 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %g, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.add %o, %res : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %s : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}
