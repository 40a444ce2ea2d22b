// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu --verify-diagnostics

// A weight gradient reduces a and its weights over their rows, so both are
// read as [K, ...]: [N, K] weights do not go with a_layout = "km".
func.func @km(%a: tensor<64x128xbf16>, %b: tensor<32x64xbf16>) -> tensor<128x32xbf16> {
  // expected-error @+1 {{a GEMM that reads a as [K, M] (a_layout = "km") needs weights read as [K, N] (b_layout = "kn"), both reduced over their rows; this one has "nk"}}
  %y = coda.gemm %a, [%b] {a_layout = "km"} : (tensor<64x128xbf16>, tensor<32x64xbf16>) -> tensor<128x32xbf16> {
  ^bb0(%acc: tensor<128x32xf32>):
    coda.yield %acc : tensor<128x32xf32>
  }
  return %y : tensor<128x32xbf16>
}

// -----

// f32 operands are not tensor-core inputs here.
func.func @f32_operands(%a: tensor<?x64xf32>, %w: tensor<32x64xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{the kernel generator takes bf16 or f16 operands, got 'f32'}}
  %y = coda.gemm %a, [%w] : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}

// -----

// Results are [M, N] tiles: a per-column vector is not stored.
func.func @vector_result(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<32xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<32xf32>' is not an [M, 32] tile or the partials of a row reduction; one kernel covers one column range}}
  %y = coda.gemm %a, [%w] inputs(%b) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<32xf32> {
  ^bb0(%acc: tensor<?x32xf32>, %bias: tensor<32xf32>):
    coda.yield %bias : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}

// -----

// Accumulating into an input comes with the backward kernels.
func.func @accumulate(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{accumulating results into inputs is not supported by the kernel generator yet}}
  %y = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// Partials must come from a GEMM's epilogue, which fixes their count.
func.func @finish_argument(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{the kernel generator finishes partials stored by a GEMM's epilogue; these come from elsewhere}}
  %r = coda.reduce_partials %p {kind = "sum"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// RoPE heads must lie inside the 128-column tile.
func.func @rope_wide_head(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %c: tensor<?x128xf32>, %s: tensor<?x128xf32>) -> tensor<?x256xbf16> {
  %y = coda.gemm %a, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %cos: tensor<?x128xf32>, %sin: tensor<?x128xf32>):
    // expected-error @+1 {{head_dim = 256 does not divide the 128-column tile, so a head's pairs would span two CTAs}}
    %r = coda.rope %acc, %cos, %sin {head_dim = 256 : i64} : (tensor<?x256xf32>, tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x256xf32>
    coda.yield %r : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// "half" partners must be a multiple of 8 columns apart to share a thread.
func.func @rope_small_head(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %c: tensor<?x4xf32>, %s: tensor<?x4xf32>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>):
    // expected-error @+1 {{with head_dim = 8, the "half" partners at head_dim / 2 = 4 columns are not held by the same thread; the generator needs head_dim / 2 to be a multiple of 8}}
    %r = coda.rope %acc, %cos, %sin {head_dim = 8 : i64} : (tensor<?x128xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x128xf32>
    coda.yield %r : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// The rotated columns must start on a head boundary of the tile.
func.func @rope_offset(%a: tensor<?x64xbf16>, %w: tensor<160x64xbf16>, %c: tensor<?x16xf32>, %s: tensor<?x16xf32>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<160x64xbf16>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x160xf32>, %cos: tensor<?x16xf32>, %sin: tensor<?x16xf32>):
    // expected-error @+1 {{the rotated columns start at column 16 of the tile's columns, not on a head boundary (head_dim = 32)}}
    %r = coda.rope %acc, %cos, %sin {head_dim = 32 : i64} : (tensor<?x160xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x160xf32>
    %x = coda.slice %r {offset = 16 : i64, size = 128 : i64} : (tensor<?x160xf32>) -> tensor<?x128xf32>
    coda.yield %x : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// The angles are read from memory, not computed in the epilogue.
func.func @rope_computed_angles(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %c: tensor<?x16xf32>, %s: tensor<?x16xf32>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>, %cos: tensor<?x16xf32>, %sin: tensor<?x16xf32>):
    %c2 = coda.scale %cos {factor = 2.0 : f32} : (tensor<?x16xf32>) -> tensor<?x16xf32>
    // expected-error @+1 {{the cosines and sines of a coda.rope in an epilogue must be epilogue inputs}}
    %r = coda.rope %acc, %c2, %sin {head_dim = 32 : i64} : (tensor<?x128xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x128xf32>
    coda.yield %r : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Concat pieces must meet on tile boundaries.
func.func @concat_cut(%a: tensor<?x64xbf16>, %w: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    %lo = coda.slice %acc {offset = 0 : i64, size = 64 : i64} : (tensor<?x128xf32>) -> tensor<?x64xf32>
    %hi = coda.slice %acc {offset = 64 : i64, size = 64 : i64} : (tensor<?x128xf32>) -> tensor<?x64xf32>
    // expected-error @+1 {{the concat's pieces meet at output column 64, which is not a multiple of the 128-column tile}}
    %c = coda.concat %hi, %lo : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x128xf32>
    coda.yield %c : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Three column shifts of the accumulator need three B boxes per tile.
func.func @three_boxes(%a: tensor<?x64xbf16>, %w: tensor<384x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{the epilogue reads the accumulator at 3 column shifts of one tile; the generator loads at most 2 weight boxes per tile}}
  %y = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<384x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x384xf32>):
    %x0 = coda.slice %acc {offset = 0 : i64, size = 128 : i64} : (tensor<?x384xf32>) -> tensor<?x128xf32>
    %x1 = coda.slice %acc {offset = 128 : i64, size = 128 : i64} : (tensor<?x384xf32>) -> tensor<?x128xf32>
    %x2 = coda.slice %acc {offset = 256 : i64, size = 128 : i64} : (tensor<?x384xf32>) -> tensor<?x128xf32>
    %s = coda.add %x0, %x1 : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    %t = coda.add %s, %x2 : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    coda.yield %t : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Pairs of adjacent columns are read and written together.
func.func @odd_slice(%a: tensor<?x64xbf16>, %w: tensor<136x64xbf16>) -> tensor<?x128xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<136x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x136xf32>):
    // expected-error @+1 {{the generator reads and writes pairs of adjacent columns, so slices start and end on even columns; this one is [1, 129)}}
    %x = coda.slice %acc {offset = 1 : i64, size = 128 : i64} : (tensor<?x136xf32>) -> tensor<?x128xf32>
    coda.yield %x : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// A tile's weight rows come from one weight.
func.func @weights_meet_inside_tile(%a: tensor<?x64xbf16>, %w0: tensor<64x64xbf16>, %w1: tensor<64x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{the tile at output column 0 reads accumulator columns [0, 128), which span two weights; weights must meet on a 128-column boundary of the tiles}}
  %y = coda.gemm %a, [%w0, %w1] : (tensor<?x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}

// -----

// Partials reduce the output's columns, tile by tile.
func.func @partial_width(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  %y:2 = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x256xf32>):
    %x = coda.slice %acc {offset = 0 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    // expected-error @+1 {{the partials reduce 128 columns, but the kernel's tiles cover the 256 columns of its results}}
    %p = coda.partial_reduce %x {kind = "sum"} : (tensor<?x128xf32>) -> tensor<?x?xf32>
    coda.yield %acc, %p : tensor<?x256xf32>, tensor<?x?xf32>
  }
  return %y#0, %y#1 : tensor<?x256xbf16>, tensor<?x?xf32>
}

// -----

// One kernel covers one column range: results of different widths are two
// kernels.
func.func @two_widths(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> (tensor<?x256xbf16>, tensor<?x128xbf16>) {
  // expected-error @+1 {{result #1 of type 'tensor<?x128xbf16>' is not an [M, 256] tile or the partials of a row reduction; one kernel covers one column range}}
  %y:2 = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> (tensor<?x256xbf16>, tensor<?x128xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>):
    %x = coda.slice %acc {offset = 0 : i64, size = 128 : i64} : (tensor<?x256xf32>) -> tensor<?x128xf32>
    coda.yield %acc, %x : tensor<?x256xf32>, tensor<?x128xf32>
  }
  return %y#0, %y#1 : tensor<?x256xbf16>, tensor<?x128xbf16>
}

// -----

// The statistics kernel reads pairs of columns.
func.func @odd_statistics(%x: tensor<?x63xbf16>, %g: tensor<63xbf16>) -> (tensor<?x63xbf16>, tensor<?x1xf32>) {
  // expected-error @+1 {{the statistics kernel reads pairs of columns; x has 63 columns}}
  %h, %r = coda.norm_statistics %x, %g {kind = "rms_norm", epsilon = 1.0e-05 : f32} : (tensor<?x63xbf16>, tensor<63xbf16>) -> (tensor<?x63xbf16>, tensor<?x1xf32>)
  return %h, %r : tensor<?x63xbf16>, tensor<?x1xf32>
}

// -----

// An op left outside every epilogue that is no elementwise map has no
// kernel: an interleaved RoPE, whose pairs are adjacent columns.
func.func @lone_rope(%x: tensor<?x64xbf16>, %c: tensor<?x32xf32>, %s: tensor<?x32xf32>) -> tensor<?x64xbf16> {
  // expected-error @+1 {{'coda.rope' outside a GEMM epilogue has no GPU kernel yet; the generator runs coda.gemm, coda.reduce_partials, coda.norm_statistics, coda.rms_norm, coda.layer_norm, coda.rms_norm_grad_partials, coda.layer_norm_grad_partials, coda.sum_rows, coda.cross_entropy_from_partials, coda.cross_entropy_row_weights, elementwise maps, slices, concats and "half" RoPE, row-sum maps (which coda-form-maps makes of a coda.partial_reduce of sums read only by a coda.reduce_partials of sums), and leaves coda.attention to the caller}}
  %y = coda.rope %x, %c, %s {head_dim = 64 : i64, style = "interleaved"} : (tensor<?x64xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// The loss kernel reads one log-sum-exp and target logit per row, as
// coda-form-epilogues finishes them.
func.func @loss_partials(%lse: tensor<?x4xf32>, %picked: tensor<?x4xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  // expected-error @+1 {{the kernel generator finishes a cross-entropy from one log-sum-exp and one target logit per row ([M, 1], as coda-form-epilogues makes them), not 'tensor<?x4xf32>'}}
  %l = coda.cross_entropy_from_partials %lse, %picked, %t : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A gather's blocks are the kernel's 128-column tiles.
func.func @gather_tile(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %t: tensor<?xi64>) -> tensor<?x?xf32> {
  %y = coda.gemm %a, [%w] inputs(%t) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?xi64>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x256xf32>, %targets: tensor<?xi64>):
    // expected-error @+1 {{the kernel generator gathers in tiles of 128 columns, but tile_n = 64}}
    %g = coda.partial_gather %acc, %targets {tile_n = 64 : i64} : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<?x?xf32>
    coda.yield %g : tensor<?x?xf32>
  }
  return %y : tensor<?x?xf32>
}

// -----

// Epilogue inputs are read as floating-point values.
func.func @integer_input(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %t: tensor<?xi64>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{epilogue input #0 of type 'tensor<?xi64>' is not a floating-point tensor, nor the targets of coda.partial_gather or coda.softmax_target_grad and nothing else}}
  %y = coda.gemm %a, [%w] inputs(%t) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?xi64>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %targets: tensor<?xi64>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// A norm's row kernel gives each of its warp's 32 lanes the same columns.
func.func @norm_columns(%x: tensor<?x100xbf16>, %g: tensor<100xbf16>) -> tensor<?x100xbf16> {
  // expected-error @+1 {{the norm kernels give each of the 32 lanes of a row's warp the same number of columns, so rows need a multiple of 32 columns; x has 100}}
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x100xbf16>, tensor<100xbf16>) -> tensor<?x100xbf16>
  return %h : tensor<?x100xbf16>
}

// -----

// A norm gradient's kernel takes whole 16-byte groups of each row.
func.func @norm_grad_columns(%x: tensor<?x96xbf16>, %g: tensor<96xbf16>, %dy: tensor<?x96xbf16>, %r: tensor<?x96xbf16>) -> (tensor<1056x96xf32>, tensor<?x96xbf16>) {
  // expected-error @+1 {{the norm kernels give each lane of a row's warp 16 bytes at a time, so rows of 'bf16' need a multiple of 256 columns; x has 96}}
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x96xbf16>, tensor<96xbf16>, tensor<?x96xbf16>, tensor<?x96xbf16>) -> (tensor<1056x96xf32>, tensor<?x96xbf16>)
  return %p, %dx : tensor<1056x96xf32>, tensor<?x96xbf16>
}

// -----

// A map's kernel picks a concat's piece by column range: only the value it
// yields may be a concat.
func.func @map_inner_concat(%a: tensor<?x128xbf16>, %b: tensor<?x128xbf16>) -> tensor<?x256xbf16> {
  %y = coda.map inputs(%a, %b) : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%x: tensor<?x128xf32>, %z: tensor<?x128xf32>):
    // expected-error @+1 {{a map's kernel picks a concat's piece by its column range, so a concat must be the value it yields}}
    %c = coda.concat %x, %z : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x256xf32>
    %s = coda.silu %c : (tensor<?x256xf32>) -> tensor<?x256xf32>
    coda.yield %s : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// Partial reductions belong in GEMM epilogues; a map sums its rows with
// row_sum, not with one in its region.
func.func @map_partials(%a: tensor<?x128xbf16>) -> tensor<?x1xf32> {
  %y = coda.map inputs(%a) : (tensor<?x128xbf16>) -> tensor<?x1xf32> {
  ^bb0(%x: tensor<?x128xf32>):
    // expected-error @+1 {{a map's kernel evaluates elementwise maps, slices, concats and "half" RoPE, not 'coda.partial_reduce'}}
    %p = coda.partial_reduce %x {kind = "sum", tile_n = 128 : i64} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    coda.yield %p : tensor<?x1xf32>
  }
  return %y : tensor<?x1xf32>
}

// -----

// Partials that something else reads too are no row sum alone (the
// coda-form-maps pipeline leaves them as they are), and no kernel stores
// per-block partials of a value no GEMM makes.
func.func @partials_read_twice(%x: tensor<?x96xf32>) -> (tensor<?x1xf32>, tensor<?x?xf32>) {
  // expected-error @+1 {{'coda.partial_reduce' outside a GEMM epilogue has no GPU kernel yet}}
  %s = coda.partial_reduce %x : (tensor<?x96xf32>) -> tensor<?x?xf32>
  // expected-error @+1 {{the kernel generator finishes partials stored by a GEMM's epilogue; these come from elsewhere}}
  %t = coda.reduce_partials %s : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %t, %s : tensor<?x1xf32>, tensor<?x?xf32>
}
