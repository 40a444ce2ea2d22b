// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="stages=2" | FileCheck %s --check-prefix=TWO

// Which epilogue inputs the producer loads through the ring
// (input_tensor_map_rows 64) and which the epilogue reads from global
// memory (0): 16-bit [M, W] tiles read at the output's own columns, at
// most one ring of them, in 256-row cooperative tiles. An f32 tile, a
// per-column vector and a per-row column are read from global memory.
// CHECK-LABEL: func.func @kinds
//       CHECK:   input_tensor_map_rows = array<i64: 64, 0, 64, 0, 0, 64>
//       CHECK:   gpu.func @kinds_gemm0
// A slab needs all its steps in the ring at once: with 2 slots, the third
// tile is read from global memory.
// TWO-LABEL: func.func @kinds
//       TWO:   input_tensor_map_rows = array<i64: 64, 0, 64, 0, 0, 0>
func.func @kinds(%x: tensor<?x256xbf16>, %w: tensor<256x256xbf16>, %a: tensor<?x256xbf16>, %f: tensor<?x256xf32>, %c: tensor<?x256xf16>, %v: tensor<256xbf16>, %s: tensor<?x1xf32>, %d: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%a, %f, %c, %v, %s, %d) : (tensor<?x256xbf16>, tensor<256x256xbf16>, tensor<?x256xbf16>, tensor<?x256xf32>, tensor<?x256xf16>, tensor<256xbf16>, tensor<?x1xf32>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %ai: tensor<?x256xf32>, %fi: tensor<?x256xf32>, %ci: tensor<?x256xf32>, %vi: tensor<256xf32>, %si: tensor<?x1xf32>, %di: tensor<?x256xf32>):
    %0 = coda.add %acc, %ai : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %1 = coda.mul %0, %fi : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %2 = coda.add %1, %ci : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %3 = coda.mul %2, %vi : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %4 = coda.mul %3, %si : (tensor<?x256xf32>, tensor<?x1xf32>) -> tensor<?x256xf32>
    %5 = coda.add %4, %di : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %5 : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// A tile read at shifted columns (its halves swapped by slices and a
// concat) is read from global memory; the tile read at the output's own
// columns beside it is loaded through the ring.
// CHECK-LABEL: func.func @shifted
//       CHECK:   input_tensor_map_rows = array<i64: 0, 64>
func.func @shifted(%x: tensor<?x256xbf16>, %w: tensor<256x256xbf16>, %r: tensor<?x256xbf16>, %q: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%r, %q) : (tensor<?x256xbf16>, tensor<256x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %ri: tensor<?x256xf32>, %qi: tensor<?x256xf32>):
    %hi = coda.slice %ri {offset = 128 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %lo = coda.slice %ri {offset = 0 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %swapped = coda.concat %hi, %lo : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x256xf32>
    %0 = coda.add %acc, %swapped : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %1 = coda.add %0, %qi : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %1 : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// 128-row tiles (two weight boxes per stage): a slot's A box holds only
// half a slab step, so the residual is read from global memory.
// CHECK-LABEL: func.func @two_boxes
//       CHECK:   input_tensor_map_rows = array<i64: 0>, {{.*}}rows_per_tile = 128
func.func @two_boxes(%h: tensor<?x64xbf16>, %wg: tensor<256x64xbf16>, %wu: tensor<256x64xbf16>, %r: tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %h, [%wg, %wu] inputs(%r) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x512xf32>, %ri: tensor<?x256xf32>):
    %g = coda.slice %acc {offset = 0 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %u = coda.slice %acc {offset = 256 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %g, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.add %o, %ri : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %s : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// Three bf16 results beside two ring inputs, where the staging buffer
// holds only two at 4 slots: the gradients are staged over the inputs'
// boxes, each thread writing its pair where it read the input's, and only
// the SwiGLU output takes the buffer (64-column chunks). At a slab's end
// the output's last chunk goes out as one bulk group and each gradient's
// two boxes from the ring steps as another. The ring holds both slabs'
// steps, so the next slab's buffer waits only for the older group, and
// the slab's steps are released halfway through the next slab, once the
// first thread has seen every store read and the warpgroup has met; the
// last slab's at the tile's end.
// CHECK-LABEL: func.func @results_over_inputs
//       CHECK:   input_tensor_map_rows = array<i64: 64, 64>, {{.*}}result_tensor_map_rows = array<i64: 64, 64, 64>, {{.*}}shared_bytes = 214016 : i64, stages = 4 : i64
//       CHECK:   gpu.func @results_over_inputs_gemm0
//       CHECK:     %[[DG:.+]] = builtin.unrealized_conversion_cast %arg6 : !llvm.ptr to !nvgpu.tensormap.descriptor
//       CHECK:     %[[DU:.+]] = builtin.unrealized_conversion_cast %arg7 : !llvm.ptr to !nvgpu.tensormap.descriptor
//       CHECK:     %[[O:.+]] = builtin.unrealized_conversion_cast %arg8 : !llvm.ptr to !nvgpu.tensormap.descriptor
//       CHECK:     llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xbf16>
//       CHECK:     llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<3>
// Slab 0: the output's first chunk, then at the slab's end its second and
// the gradients' boxes.
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[O]][
//  CHECK-NEXT:     nvvm.cp.async.bulk.commit.group
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[O]][
//  CHECK-NEXT:     nvvm.cp.async.bulk.commit.group
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DG]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DG]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//  CHECK-NEXT:     nvvm.cp.async.bulk.commit.group
//   CHECK-NOT:     nvgpu.mbarrier.arrive
// Slab 1: its steps; its first chunk waits for all but the gradients'
// group; halfway, slab 0's steps are released.
//       CHECK:     nvgpu.mbarrier.try_wait.parity
//       CHECK:     nvgpu.mbarrier.try_wait.parity
//   CHECK-NOT:     nvgpu.mbarrier.arrive
//       CHECK:     nvvm.cp.async.bulk.wait_group 1 {read}
//   CHECK-NOT:     nvgpu.mbarrier.arrive
//       CHECK:     nvvm.cp.async.bulk.wait_group 0 {read}
//       CHECK:     nvvm.barrier
//       CHECK:     nvgpu.mbarrier.arrive
//  CHECK-NEXT:     nvgpu.mbarrier.arrive
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[O]][
// Slab 1's end, then its steps released at the tile's end.
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DG]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DG]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//  CHECK-NEXT:     nvvm.cp.async.bulk.commit.group
//   CHECK-NOT:     nvgpu.mbarrier.arrive
//       CHECK:     nvvm.cp.async.bulk.wait_group 0 {read}
//       CHECK:     nvvm.barrier
//       CHECK:     nvgpu.mbarrier.arrive
//  CHECK-NEXT:     nvgpu.mbarrier.arrive
func.func @results_over_inputs(%dy: tensor<?x64xbf16>, %w: tensor<64x256xbf16>, %g: tensor<?x256xbf16>, %u: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %r:3 = coda.gemm %dy, [%w] inputs(%g, %u) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>):
    %dg = coda.mul %acc, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>
}

// -----

// Six results at a pinned 3 slots: two staged over the ring inputs, four
// in the buffer. Slab 1's second step needs one of slab 0's slots, so slab
// 0's steps are released at its end, once their stores have read them.
// CHECK-LABEL: func.func @over_inputs_three_slots
//       CHECK:   gpu.func @over_inputs_three_slots_gemm0
//       CHECK:     %[[DU:.+]] = builtin.unrealized_conversion_cast %arg7 : !llvm.ptr to !nvgpu.tensormap.descriptor
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//       CHECK:     nvgpu.tma.async.store %{{.+}} to %[[DU]][
//  CHECK-NEXT:     nvvm.cp.async.bulk.commit.group
//  CHECK-NEXT:   }
//       CHECK:     nvvm.cp.async.bulk.wait_group 0 {read}
//       CHECK:     nvvm.barrier
//       CHECK:     nvgpu.mbarrier.arrive
//  CHECK-NEXT:     nvgpu.mbarrier.arrive
//       CHECK:     nvgpu.mbarrier.try_wait.parity
func.func @over_inputs_three_slots(%dy: tensor<?x64xbf16>, %w: tensor<64x256xbf16>, %g: tensor<?x256xbf16>, %u: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %r:6 = coda.gemm %dy, [%w] inputs(%g, %u) {b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 3 : i64}} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>):
    %dg = coda.mul %acc, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.silu %acc : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %t = coda.scale %acc {factor = 2.0 : f32} : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %v = coda.add %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o, %s, %t, %v : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>
}
