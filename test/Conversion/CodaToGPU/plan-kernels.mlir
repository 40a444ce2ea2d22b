// RUN: coda-opt %s --split-input-file --coda-plan-kernels="schedule=cooperative" | FileCheck %s
// RUN: coda-opt %s --split-input-file --coda-plan-kernels | FileCheck %s --check-prefix=AUTO
// RUN: coda-opt %s --split-input-file --coda-plan-kernels="schedule=pingpong stages=3" | FileCheck %s --check-prefix=PINGPONG
// RUN: coda-opt %s --split-input-file --coda-plan-kernels="schedule=cooperative" --convert-coda-to-gpu="schedule=pingpong" | FileCheck %s --check-prefix=FOLLOWED
// RUN: coda-opt %s --split-input-file --coda-plan-kernels="schedule=cooperative group-rows=16" --convert-coda-to-gpu | FileCheck %s --check-prefix=GROUP

// By default (schedule = "auto") a GEMM gets an epilogue warpgroup when its
// epilogue computes more than the accumulator's store, reads neither a
// 16-bit [M, W] tile nor a per-column vector, and has only 16-bit tile
// results, and it is not a weight gradient; the others are cooperative.
// AUTO-LABEL: func.func @oproj
//       AUTO:   schedule = "cooperative"
// AUTO-LABEL: func.func @swiglu
//       AUTO:   coda.plan = {boxes = 2 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 128 : i64, schedule = "epilogue-warpgroup", splits = 1 : i64, stages = 4 : i64, wide_tiles = false}
// AUTO-LABEL: func.func @three_results_ring_inputs
//       AUTO:   schedule = "cooperative"
//       AUTO:   schedule = "cooperative"
//       AUTO:   schedule = "cooperative"
//       AUTO:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "epilogue-warpgroup", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
// AUTO-LABEL: func.func @qkv_wgrad
//       AUTO:   schedule = "cooperative"
// AUTO-LABEL: func.func @bias_gelu
//       AUTO:   schedule = "cooperative"
// AUTO-LABEL: func.func @plain
//       AUTO:   schedule = "cooperative"
// AUTO-LABEL: func.func @lse_partials
//       AUTO:   schedule = "cooperative"

// The O-projection pattern: one weight box, 256-row cooperative tiles, the
// deepest ring that fits (4 slots of 48 KiB); the partials and the
// reduction that finishes them get the kernel's 128-column tile.
// CHECK-LABEL: func.func @oproj
//       CHECK:   coda.gemm {{.*}}coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
//       CHECK:     coda.partial_reduce {{.*}}{kind = "sum_squares", tile_n = 128 : i64}
//       CHECK:   coda.reduce_partials {{.*}}tile_n = 128 : i64
// With group-rows=16 the whole tiles go in groups of 16 row tiles by the
// 2 column tiles: a unit's group is its tile's index / 32, whose first row
// tile is 16 times that.
// GROUP-LABEL: func.func @oproj
//       GROUP:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 16 : i64,
//       GROUP:   gpu.func @oproj_gemm0
//       GROUP:     %[[GROUP:.+]] = arith.divui %{{.+}}, %c32 : index
//       GROUP:     arith.muli %[[GROUP]], %c16 : index
// PINGPONG-LABEL: func.func @oproj
//       PINGPONG:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 128 : i64, schedule = "pingpong", splits = 1 : i64, stages = 3 : i64, wide_tiles = false}
// convert-coda-to-gpu follows the plan over its own options.
// FOLLOWED-LABEL: func.func @oproj
//       FOLLOWED:   coda.launch = {{{.*}}schedule = "cooperative", shared_bytes = 230400 : i64, stages = 4 : i64
func.func @oproj(%y: tensor<?x256xbf16>, %w: tensor<256x256xbf16>, %x0: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x1xf32>) {
  %g:2 = coda.gemm %y, [%w] inputs(%x0) : (tensor<?x256xbf16>, tensor<256x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x256xf32>, %res: tensor<?x256xf32>):
    %x1 = coda.add %res, %acc : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %p = coda.partial_reduce %x1 {kind = "sum_squares"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %x1, %p : tensor<?x256xf32>, tensor<?x?xf32>
  }
  %r = coda.reduce_partials %g#1 {kind = "rstd", count = 256 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %g#0, %r : tensor<?x256xbf16>, tensor<?x1xf32>
}

// -----

// SwiGLU over gate and up: two weight boxes per stage, 128-row tiles.
// CHECK-LABEL: func.func @swiglu
//       CHECK:   coda.plan = {boxes = 2 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 128 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = false}
// PINGPONG-LABEL: func.func @swiglu
//       PINGPONG:   coda.plan = {boxes = 2 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 64 : i64, schedule = "pingpong", splits = 1 : i64, stages = 3 : i64, wide_tiles = false}
func.func @swiglu(%h: tensor<?x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %h, [%wg, %wu] : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    %g = coda.slice %acc {offset = 0 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %u = coda.slice %acc {offset = 128 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    %o = coda.swiglu %g, %u : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %o : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Three 16-bit tile results beside two tile inputs read through the ring:
// at 4 slots of 48 KiB only two results fit in the staging buffer, so the
// first two are staged over the ring inputs' boxes and the third takes the
// buffer in 64-column chunks (4 x 48 + 2 x 8 + 1 KiB); a plan that fixes
// the stages does the same. Five results are too many for that (three
// 64-column chunks need 48 KiB), so the ring gives a slot up and all five
// take the buffer; without ring inputs the ring keeps its slots (the third
// result is stored from registers).
// CHECK-LABEL: func.func @three_results_ring_inputs
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 3 : i64, wide_tiles = true}
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 4 : i64, wide_tiles = true}
// FOLLOWED-LABEL: func.func @three_results_ring_inputs
//       FOLLOWED:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 64, 64>, persistent = true, result_tensor_map_rows = array<i64: 64, 64, 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 214016 : i64, stages = 4 : i64
//       FOLLOWED:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 64, 64>, persistent = true, result_tensor_map_rows = array<i64: 64, 64, 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 214016 : i64, stages = 4 : i64
//       FOLLOWED:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 64, 64>, persistent = true, result_tensor_map_rows = array<i64: 64, 64, 64, 64, 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 230400 : i64, stages = 3 : i64
//       FOLLOWED:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64>, persistent = true, result_tensor_map_rows = array<i64: 64, 64, 0>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 230400 : i64, stages = 4 : i64
func.func @three_results_ring_inputs(%dy: tensor<?x64xbf16>, %w: tensor<64x256xbf16>, %g: tensor<?x256xbf16>, %u: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %r:3 = coda.gemm %dy, [%w] inputs(%g, %u) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>):
    %dg = coda.mul %acc, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  %p:3 = coda.gemm %dy, [%w] inputs(%g, %u) {b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64}} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>):
    %dg = coda.mul %acc, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  %f:5 = coda.gemm %dy, [%w] inputs(%g, %u) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>):
    %dg = coda.mul %acc, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.silu %acc : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %t = coda.scale %acc {factor = 2.0 : f32} : (tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o, %s, %t : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  %q:3 = coda.gemm %dy, [%w] {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>):
    %s = coda.silu %acc : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %t = coda.scale %acc {factor = 2.0 : f32} : (tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %acc, %s, %t : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  return %r#0, %r#1, %r#2, %p#0, %p#1, %p#2, %f#0, %f#4, %q#0, %q#1, %q#2 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>
}

// -----

// A RoPE reads an input's pairs head_dim / 2 columns away, which another
// batch may have overwritten, so results are not staged over the ring
// inputs there: the ring gives a slot up instead.
// CHECK-LABEL: func.func @rope_reads_ahead
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 1 : i64, stages = 3 : i64, wide_tiles = true}
// FOLLOWED-LABEL: func.func @rope_reads_ahead
//       FOLLOWED:   coda.launch = {block = 384 : i64, dependent_launch = true, input_tensor_map_rows = array<i64: 64, 64, 0, 0>, persistent = true, result_tensor_map_rows = array<i64: 64, 64, 64>, rows_per_tile = 256 : i64, schedule = "cooperative", shared_bytes = 197632 : i64, stages = 3 : i64
func.func @rope_reads_ahead(%dy: tensor<?x64xbf16>, %w: tensor<64x256xbf16>, %g: tensor<?x256xbf16>, %u: tensor<?x256xbf16>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %r:3 = coda.gemm %dy, [%w] inputs(%g, %u, %cos, %sin) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %ga: tensor<?x256xf32>, %ua: tensor<?x256xf32>, %c: tensor<?x32xf32>, %s: tensor<?x32xf32>):
    %rot = coda.rope %ga, %c, %s {head_dim = 64 : i64} : (tensor<?x256xf32>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xf32>
    %dg = coda.mul %acc, %rot : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %du = coda.mul %acc, %ga : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %ga, %ua : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %dg, %du, %o : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>
}

// -----

// A plan already on the GEMM keeps its schedule and stages over the
// options; its tile and boxes are re-derived.
// CHECK-LABEL: func.func @pinned
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 128 : i64, schedule = "pingpong", splits = 1 : i64, stages = 5 : i64, wide_tiles = false}
// PINGPONG-LABEL: func.func @pinned
//       PINGPONG:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 128 : i64, schedule = "pingpong", splits = 1 : i64, stages = 5 : i64, wide_tiles = false}
// FOLLOWED-LABEL: func.func @pinned
//       FOLLOWED:   coda.launch = {{{.*}}schedule = "pingpong", shared_bytes = {{[0-9]+}} : i64, stages = 5 : i64
func.func @pinned(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "pingpong", stages = 5 : i64}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// So does a plan's group_rows, over the group-rows option.
// CHECK-LABEL: func.func @pinned_group
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 4 : i64,
// GROUP-LABEL: func.func @pinned_group
//       GROUP:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 4 : i64,
//       GROUP:   gpu.func @pinned_group_gemm0
//       GROUP:     %[[GROUP:.+]] = arith.divui %{{.+}}, %c4{{(_[0-9]+)?}} : index
//       GROUP:     arith.muli %[[GROUP]], %c4{{(_[0-9]+)?}} : index
func.func @pinned_group(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, group_rows = 4 : i64}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// A weight gradient's tile count is static: the QKV weight's 12 x 16 tiles
// of 256 rows keep 73% of 132 SMs busy, its 8 x 16 tiles of 384 rows (three
// consumer warpgroups, 512 threads) 97%: not split, a ring of 3 slots of
// 64 KiB and one 64-column staging chunk per consumer. Under ping-pong
// (two consumers, one each per tile) nothing is split either.
// CHECK-LABEL: func.func @qkv_wgrad
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 3 : i64, group_rows = 8 : i64, rows_per_tile = 384 : i64, schedule = "cooperative", splits = 1 : i64, stages = 3 : i64, wide_tiles = false}
// PINGPONG-LABEL: func.func @qkv_wgrad
//       PINGPONG:   consumers = 2 : i64, {{.*}}splits = 1 : i64
// FOLLOWED-LABEL: func.func @qkv_wgrad
//       FOLLOWED:   coda.launch = {block = 512 : i64, {{.*}}rows_per_tile = 384 : i64, schedule = "cooperative", shared_bytes = 222208 : i64, stages = 3 : i64
//   FOLLOWED-NOT:   scratch_bytes
func.func @qkv_wgrad(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn"} : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  ^bb0(%acc: tensor<3072x2048xf32>):
    coda.yield %acc : tensor<3072x2048xf32>
  }
  return %dw : tensor<3072x2048xbf16>
}

// -----

// With two consumers pinned, two splits of the rows fill 97%. The launch
// gives the units per tile and the scratch: 3072 bytes of counters, then
// 64 KiB per tile and consumer.
// CHECK-LABEL: func.func @qkv_wgrad_two_consumers
//       CHECK:   coda.plan = {boxes = 1 : i64, consumers = 2 : i64, group_rows = 8 : i64, rows_per_tile = 256 : i64, schedule = "cooperative", splits = 2 : i64, stages = 4 : i64, wide_tiles = false}
// FOLLOWED-LABEL: func.func @qkv_wgrad_two_consumers
//       FOLLOWED:   coda.launch = {{{.*}}scratch_bytes = 25168896 : i64, {{.*}}splits = 2 : i64
func.func @qkv_wgrad_two_consumers(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, consumers = 2 : i64}} : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  ^bb0(%acc: tensor<3072x2048xf32>):
    coda.yield %acc : tensor<3072x2048xf32>
  }
  return %dw : tensor<3072x2048xbf16>
}

// -----

// 8 x 16 tiles already fill 97% of a wave: not split.
// CHECK-LABEL: func.func @square_wgrad
//       CHECK:   splits = 1 : i64
// FOLLOWED-LABEL: func.func @square_wgrad
//   FOLLOWED-NOT:   scratch_bytes
func.func @square_wgrad(%dy: tensor<?x2048xbf16>, %x: tensor<?x2048xbf16>) -> tensor<2048x2048xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn"} : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<2048x2048xbf16> {
  ^bb0(%acc: tensor<2048x2048xf32>):
    coda.yield %acc : tensor<2048x2048xf32>
  }
  return %dw : tensor<2048x2048xbf16>
}

// -----

// A small weight gradient (one tile) takes the fullest of the splits, 4;
// a plan may pin the split off.
// CHECK-LABEL: func.func @small_wgrad
//       CHECK:   splits = 4 : i64
// CHECK-LABEL: func.func @pinned_unsplit
//       CHECK:   splits = 1 : i64
// FOLLOWED-LABEL: func.func @small_wgrad
func.func @small_wgrad(%dy: tensor<?x200xbf16>, %x: tensor<?x136xbf16>) -> tensor<200x136xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn"} : (tensor<?x200xbf16>, tensor<?x136xbf16>) -> tensor<200x136xbf16> {
  ^bb0(%acc: tensor<200x136xf32>):
    coda.yield %acc : tensor<200x136xf32>
  }
  return %dw : tensor<200x136xbf16>
}
func.func @pinned_unsplit(%dy: tensor<?x3072xbf16>, %x: tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, splits = 1 : i64}} : (tensor<?x3072xbf16>, tensor<?x2048xbf16>) -> tensor<3072x2048xbf16> {
  ^bb0(%acc: tensor<3072x2048xf32>):
    coda.yield %acc : tensor<3072x2048xf32>
  }
  return %dw : tensor<3072x2048xbf16>
}

// -----

// A per-column bias beside the epilogue's registers, a plain store, and
// partials (which the hand-off's bf16 rounding would make less precise
// than the f32 accumulator): cooperative by default.
func.func @bias_gelu(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %b: tensor<256xf32>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%b) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256xf32>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %bias: tensor<256xf32>):
    %a = coda.add %acc, %bias : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %g = coda.gelu %a {approximate = "tanh"} : (tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %g : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

func.func @plain(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

func.func @lse_partials(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<?x?xf32> {
  %p = coda.gemm %x, [%w] : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x256xf32>):
    %l = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %l : tensor<?x?xf32>
  }
  return %p : tensor<?x?xf32>
}
