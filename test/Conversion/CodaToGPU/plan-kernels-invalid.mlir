// RUN: coda-opt %s --split-input-file --coda-plan-kernels --verify-diagnostics
// RUN: not coda-opt %s --split-input-file --coda-plan-kernels="stages=5" 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: not coda-opt %s --coda-plan-kernels="schedule=warp" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not coda-opt %s --coda-plan-kernels="stages=1" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not coda-opt %s --coda-plan-kernels="group-rows=0" 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not coda-opt %s --convert-coda-to-gpu="group-rows=0" 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not coda-opt %s --split-input-file --convert-coda-to-gpu 2>&1 | FileCheck %s --check-prefix=BADPLAN

// NOFIT: error: a ring of 5 stages of 48 KiB needs 241 KiB of shared memory; a CTA has 227 KiB
// SCHEDULE: error: schedule = "warp" is not "auto", "cooperative", "pingpong" or "epilogue-warpgroup"
// STAGES: error: stages = 1: the mainloop's ring needs at least 2 slots to overlap loads with wgmma
// GROUP: error: group-rows = 0: a tile group holds at least one row tile
// BADPLAN: error: coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {schedule = "cooperative", stages = 1 : i64}

// What the generator cannot take is reported when planning: a weight
// gradient reads both operands as [K, ...].
func.func @km(%a: tensor<64x128xbf16>, %b: tensor<32x64xbf16>) -> tensor<128x32xbf16> {
  // expected-error @+1 {{a GEMM that reads a as [K, M] (a_layout = "km") needs weights read as [K, N] (b_layout = "kn"), both reduced over their rows; this one has "nk"}}
  %y = coda.gemm %a, [%b] {a_layout = "km"} : (tensor<64x128xbf16>, tensor<32x64xbf16>) -> tensor<128x32xbf16> {
  ^bb0(%acc: tensor<128x32xf32>):
    coda.yield %acc : tensor<128x32xf32>
  }
  return %y : tensor<128x32xbf16>
}

// -----

// Products are summed over static reductions only: weight gradients, which
// reduce over the rows, are not.
func.func @km_products(%d0: tensor<?x128xbf16>, %d1: tensor<?x128xbf16>, %x0: tensor<?x64xbf16>, %x1: tensor<?x64xbf16>) -> tensor<128x64xbf16> {
  // expected-error @+1 {{the kernel generator sums 2 products only over static reductions (a_layout = "mk"); this one reduces over the rows}}
  %y = coda.gemm %d0, [%x0] + %d1, [%x1] {a_layout = "km", b_layout = "kn"} : (tensor<?x128xbf16>, tensor<?x128xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<128x64xbf16> {
  ^bb0(%acc: tensor<128x64xf32>):
    coda.yield %acc : tensor<128x64xf32>
  }
  return %y : tensor<128x64xbf16>
}

// -----

// A plan that is not one: reported by coda-plan-kernels, which keeps a
// GEMM's plan, and by convert-coda-to-gpu.
func.func @bad_plan(%a: tensor<?x64xbf16>, %b: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {schedule = "cooperative", stages = 1 : i64}}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 1 : i64}} : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// The epilogue sums blocks of a warp's 16 rows; other blocks are refused.
func.func @block_sums_rows(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xf32> {
  %y = coda.gemm %a, [%b] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xf32> {
  ^bb0(%acc: tensor<?x128xf32>):
    // expected-error @+1 {{the kernel generator sums blocks of 16 rows (a warp's rows of a wgmma slab), but block_rows = 32}}
    %p = coda.partial_sum_rows %acc {block_rows = 32 : i64} : (tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %p : tensor<?x128xf32>
  }
  return %y : tensor<?x128xf32>
}

// -----

// Block sums are only stored: nothing in the epilogue may read them.
func.func @block_sums_read(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xf32> {
  %y = coda.gemm %a, [%b] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xf32> {
  ^bb0(%acc: tensor<?x128xf32>):
    // expected-error @+1 {{the partials are used inside the epilogue; the kernel generator only stores them}}
    %p = coda.partial_sum_rows %acc {block_rows = 16 : i64} : (tensor<?x128xf32>) -> tensor<?x128xf32>
    %q = coda.scale %p {factor = 2.0 : f32} : (tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %q : tensor<?x128xf32>
  }
  return %y : tensor<?x128xf32>
}

// -----

// A plain GEMM, planned without error by default; stages=5 does not fit
// (NOFIT).
func.func @plain(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%b] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// A pinned split: 1, 2, 4 or 8 parts, under the cooperative schedule only.
func.func @three_splits(%dy: tensor<?x256xbf16>, %x: tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  // expected-error @+1 {{coda.plan splits = 3; the generator splits a reduction into 1, 2, 4 or 8 parts}}
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, splits = 3 : i64}} : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  ^bb0(%acc: tensor<256x128xf32>):
    coda.yield %acc : tensor<256x128xf32>
  }
  return %dw : tensor<256x128xbf16>
}

// -----

// A weight gradient under an epilogue warpgroup is not split: the hand-off
// has no meeting of the splits' partial accumulators.
func.func @split_epilogue_warpgroup(%dy: tensor<?x128xbf16>, %x: tensor<?x64xbf16>) -> tensor<128x64xbf16> {
  // expected-error @+1 {{coda.plan splits = 2 needs the cooperative schedule, and for a weight gradient (a_layout = "km") an epilogue that loads no input through the ring}}
  %w = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "epilogue-warpgroup", stages = 4 : i64, splits = 2 : i64}} : (tensor<?x128xbf16>, tensor<?x64xbf16>) -> tensor<128x64xbf16> {
  ^bb0(%acc: tensor<128x64xf32>):
    coda.yield %acc : tensor<128x64xf32>
  }
  return %w : tensor<128x64xbf16>
}

// -----

// A ping-pong consumer has no partner at its tile to meet.
func.func @split_pingpong(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{coda.plan splits = 2 needs the cooperative schedule, and for a weight gradient (a_layout = "km") an epilogue that loads no input through the ring}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "pingpong", stages = 4 : i64, splits = 2 : i64}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

func.func @split_name(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {schedule = "cooperative", splits = "two", stages = 4 : i64}}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, splits = "two"}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// A tile group of no row tiles.
func.func @group_rows_zero(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {group_rows = 0 : i64, schedule = "cooperative", stages = 4 : i64}}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, group_rows = 0 : i64}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Three consumer warpgroups take 384-row tiles, whose A box only a weight
// gradient loads (as 64-column boxes): TMA's boxes have at most 256 rows.
func.func @three_consumers_over_tokens(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{coda.plan consumers = 3; the generator's CTAs have 2 consumer warpgroups here (3 only in the cooperative schedule of a weight gradient, a_layout = "km")}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 3 : i64, consumers = 3 : i64}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

func.func @three_consumers_pingpong(%dy: tensor<?x256xbf16>, %x: tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  // expected-error @+1 {{coda.plan consumers = 3; the generator's CTAs have 2 consumer warpgroups here (3 only in the cooperative schedule of a weight gradient, a_layout = "km")}}
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "pingpong", stages = 4 : i64, consumers = 3 : i64}} : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  ^bb0(%acc: tensor<256x128xf32>):
    coda.yield %acc : tensor<256x128xf32>
  }
  return %dw : tensor<256x128xbf16>
}

// -----

func.func @four_consumers(%dy: tensor<?x256xbf16>, %x: tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  // expected-error @+1 {{coda.plan consumers = 4; the generator's CTAs have 2 or 3 consumer warpgroups here (3 only in the cooperative schedule of a weight gradient, a_layout = "km")}}
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 3 : i64, consumers = 4 : i64}} : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  ^bb0(%acc: tensor<256x128xf32>):
    coda.yield %acc : tensor<256x128xf32>
  }
  return %dw : tensor<256x128xbf16>
}

// -----

// Three consumers' ring steps are 64 KiB: four do not fit.
func.func @three_consumers_four_stages(%dy: tensor<?x256xbf16>, %x: tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  // expected-error @+1 {{a ring of 4 stages of 64 KiB needs 257 KiB of shared memory; a CTA has 227 KiB}}
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, consumers = 3 : i64}} : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<256x128xbf16> {
  ^bb0(%acc: tensor<256x128xf32>):
    coda.yield %acc : tensor<256x128xf32>
  }
  return %dw : tensor<256x128xbf16>
}

// -----

func.func @consumers_name(%a: tensor<?x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {consumers = "three", schedule = "cooperative", stages = 4 : i64}}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, consumers = "three"}} : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

func.func @wide_tiles_name(%a: tensor<?x64xbf16>, %b: tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  // expected-error @+1 {{coda.plan must be a dictionary with schedule = "cooperative", "pingpong" or "epilogue-warpgroup", stages >= 2, and optionally integer splits, integer consumers, group_rows >= 1 and a boolean wide_tiles, got {schedule = "cooperative", stages = 4 : i64, wide_tiles = 1 : i64}}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = 1 : i64}} : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// Wide tiles pinned where a launch cannot take them: each reason.
func.func @wide_pingpong(%a: tensor<?x64xbf16>, %b: tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs two consumers per tile, got "pingpong"}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "pingpong", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

func.func @wide_weight_gradient(%dy: tensor<?x256xbf16>, %x: tensor<?x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs a GEMM whose output rows are its rows (a_layout = "mk"), got a weight gradient}}
  %dw = coda.gemm %dy, [%x] {a_layout = "km", b_layout = "kn", coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%acc: tensor<256x256xf32>):
    coda.yield %acc : tensor<256x256xf32>
  }
  return %dw : tensor<256x256xbf16>
}

// -----

func.func @wide_two_boxes(%h: tensor<?x64xbf16>, %wg: tensor<256x64xbf16>, %wu: tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs one weight box per tile, got 2 (the epilogue reads the accumulator at 2 column shifts)}}
  %y = coda.gemm %h, [%wg, %wu] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x512xf32>):
    %g = coda.slice %acc {offset = 0 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %u = coda.slice %acc {offset = 256 : i64, size = 256 : i64} : (tensor<?x512xf32>) -> tensor<?x256xf32>
    %o = coda.swiglu %g, %u : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %o : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

func.func @wide_ranges(%a: tensor<?x64xbf16>, %b: tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs concat pieces that meet on 256-column boundaries (both halves of a wide tile run one range's epilogue), got a cut at column 384}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xbf16> {
  ^bb0(%acc: tensor<?x512xf32>):
    %l = coda.slice %acc {offset = 0 : i64, size = 384 : i64} : (tensor<?x512xf32>) -> tensor<?x384xf32>
    %r = coda.slice %acc {offset = 384 : i64, size = 128 : i64} : (tensor<?x512xf32>) -> tensor<?x128xf32>
    %s = coda.silu %r : (tensor<?x128xf32>) -> tensor<?x128xf32>
    %c = coda.concat %l, %s : (tensor<?x384xf32>, tensor<?x128xf32>) -> tensor<?x512xf32>
    coda.yield %c : tensor<?x512xf32>
  }
  return %y : tensor<?x512xbf16>
}

// -----

func.func @wide_width(%a: tensor<?x64xbf16>, %b: tensor<384x64xbf16>) -> tensor<?x384xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs an output width that is a multiple of 256, got 384}}
  %y = coda.gemm %a, [%b] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<384x64xbf16>) -> tensor<?x384xbf16> {
  ^bb0(%acc: tensor<?x384xf32>):
    coda.yield %acc : tensor<?x384xf32>
  }
  return %y : tensor<?x384xbf16>
}

// -----

func.func @wide_weight_starts(%a: tensor<?x64xbf16>, %b0: tensor<128x64xbf16>, %b1: tensor<128x64xbf16>) -> tensor<?x256xbf16> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs weights and accumulator shifts on 256-column boundaries (a wide tile's second 128 columns are the next 128 rows of its first's weight)}}
  %y = coda.gemm %a, [%b0, %b1] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<128x64xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>):
    coda.yield %acc : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

func.func @wide_lse(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<?x?xf32> {
  // expected-error @+1 {{coda.plan wide_tiles = true needs no partial that reduces rows to a maximum or a log-sum-exp (its second pass keeps every accumulator live)}}
  %p = coda.gemm %h, [%w] {coda.plan = {schedule = "cooperative", stages = 4 : i64, wide_tiles = true}} : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x256xf32>):
    %l = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %l : tensor<?x?xf32>
  }
  return %p : tensor<?x?xf32>
}
