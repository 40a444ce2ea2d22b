// RUN: coda-opt %s --split-input-file --verify-diagnostics

// partial_reduce_c2: tile_n, when present, is positive.
func.func @partial_reduce_zero_tile(%x: tensor<?x64xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op tile_n must be positive, got 0}}
  %p = coda.partial_reduce %x {kind = "sum", tile_n = 0 : i64} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// partial_reduce_c1: the result has the rows of x.
func.func @partial_reduce_rows(%x: tensor<2x64xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op result has 4 rows but x has 2}}
  %p = coda.partial_reduce %x {kind = "sum"} : (tensor<2x64xf32>) -> tensor<4x?xf32>
  return %p : tensor<4x?xf32>
}

// -----

// partial_reduce_c1: a static number of partials needs a planned tile_n.
func.func @partial_reduce_static_without_tile(%x: tensor<?x64xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op a static number of partials (1) needs a tile_n}}
  %p = coda.partial_reduce %x {kind = "max"} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %p : tensor<?x1xf32>
}

// -----

// partial_reduce_c1: a static number of partials is ceil(N / tile_n).
func.func @partial_reduce_wrong_count(%x: tensor<?x80xf32>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op expected 3 partials per row for 80 columns in blocks of 32, got 2}}
  %p = coda.partial_reduce %x {kind = "max", tile_n = 32 : i64} : (tensor<?x80xf32>) -> tensor<?x2xf32>
  return %p : tensor<?x2xf32>
}

// -----

// partial_reduce kind is "sum", "sum_squares", "max" or "lse".
func.func @partial_reduce_bad_kind(%x: tensor<?x64xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{custom op 'coda.partial_reduce' 'coda.partial_reduce' op attribute 'kind' failed to satisfy constraint: string attribute one of "sum", "sum_squares", "centered_sum_squares", "max", "lse"}}
  %p = coda.partial_reduce %x {kind = "min"} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// partial_reduce result type: partials are always f32.
func.func @partial_reduce_f16_result(%x: tensor<?x64xf16>) -> tensor<?x?xf16> {
  // expected-error @+1 {{'coda.partial_reduce' op result #0 must be 2D tensor of 32-bit float values, but got 'tensor<?x?xf16>'}}
  %p = coda.partial_reduce %x {kind = "sum"} : (tensor<?x64xf16>) -> tensor<?x?xf16>
  return %p : tensor<?x?xf16>
}

// -----

// reduce_partials_c1: "mean_rstd" takes two partials.
func.func @reduce_partials_mean_rstd_one_partial(%s: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op kind "mean_rstd" takes 2 partials and gives 2 results, got 1 and 2}}
  %m, %r = coda.reduce_partials %s {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %m, %r : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// reduce_partials_c1: "mean_rstd" gives two results.
func.func @reduce_partials_mean_rstd_one_result(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "mean_rstd" takes 2 partials and gives 2 results, got 2 and 1}}
  %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c1: "rstd" takes one partial.
func.func @reduce_partials_rstd_two_partials(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" takes 1 partials and gives 1 results, got 2 and 1}}
  %r = coda.reduce_partials %s, %q {kind = "rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c1: "rstd" gives one result.
func.func @reduce_partials_rstd_two_results(%q: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" takes 1 partials and gives 1 results, got 1 and 2}}
  %a, %b = coda.reduce_partials %q {kind = "rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %a, %b : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// reduce_partials_c1: every kind but "mean_rstd" takes exactly one partial, so none is rejected.
func.func @reduce_partials_no_operands() {
  // expected-error @+1 {{'coda.reduce_partials' op kind "sum" takes 1 partials and gives 1 results, got 0 and 0}}
  coda.reduce_partials {kind = "sum"} : () -> ()
  return
}

// -----

// reduce_partials_c2: results are [M, 1].
func.func @reduce_partials_result_columns(%p: tensor<?x?xf32>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op result #0 must be [M, 1], got 'tensor<?x2xf32>'}}
  %r = coda.reduce_partials %p {kind = "sum"} : (tensor<?x?xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// reduce_partials_c2: results are [M, 1]; a dynamic column count is not 1.
func.func @reduce_partials_result_dynamic_columns(%p: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op result #0 must be [M, 1], got 'tensor<?x?xf32>'}}
  %r = coda.reduce_partials %p {kind = "max"} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// reduce_partials_c2: results are [M, 1], the second result of "mean_rstd" included.
func.func @reduce_partials_second_result_columns(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x4xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op result #1 must be [M, 1], got 'tensor<?x4xf32>'}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x4xf32>)
  return %m, %r : tensor<?x1xf32>, tensor<?x4xf32>
}

// -----

// reduce_partials_c2: all partials have the same rows.
func.func @reduce_partials_partials_rows(%s: tensor<2x?xf32>, %q: tensor<4x?xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op partials #1 has 4 rows but partials #0 has 2}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x?xf32>, tensor<4x?xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>)
  return %m, %r : tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// reduce_partials_c2: the results have the rows of the partials.
func.func @reduce_partials_result_rows(%p: tensor<2x?xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op result #0 has 4 rows but partials #0 has 2}}
  %r = coda.reduce_partials %p {kind = "lse"} : (tensor<2x?xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// reduce_partials_c2: the results have the rows of the partials, the second result of "mean_rstd" included.
func.func @reduce_partials_second_result_rows(%s: tensor<2x?xf32>, %q: tensor<2x?xf32>) -> (tensor<2x1xf32>, tensor<4x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op result #1 has 4 rows but partials #0 has 2}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x?xf32>, tensor<2x?xf32>) -> (tensor<2x1xf32>, tensor<4x1xf32>)
  return %m, %r : tensor<2x1xf32>, tensor<4x1xf32>
}

// -----

// reduce_partials_c3: "rstd" needs a count.
func.func @reduce_partials_rstd_no_count(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" needs a positive count}}
  %r = coda.reduce_partials %p {kind = "rstd", epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c3: "rstd" needs a positive count.
func.func @reduce_partials_rstd_zero_count(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" needs a positive count}}
  %r = coda.reduce_partials %p {kind = "rstd", count = 0 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c3: "mean_rstd" needs a count.
func.func @reduce_partials_mean_rstd_no_count(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op kind "mean_rstd" needs a positive count}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %m, %r : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// reduce_partials_c3: "rstd" needs an epsilon.
func.func @reduce_partials_rstd_no_epsilon(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" needs an epsilon}}
  %r = coda.reduce_partials %p {kind = "rstd", count = 64 : i64} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c3: "mean_rstd" needs an epsilon.
func.func @reduce_partials_mean_rstd_no_epsilon(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op kind "mean_rstd" needs an epsilon}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %m, %r : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// reduce_partials_c3: epsilon is not negative.
func.func @reduce_partials_negative_epsilon(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op epsilon must be finite and not negative, got -1.000000e+00}}
  %r = coda.reduce_partials %p {kind = "rstd", count = 64 : i64, epsilon = -1.0 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c3: epsilon is finite (+inf).
func.func @reduce_partials_infinite_epsilon(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op epsilon must be finite and not negative, got INF}}
  %r = coda.reduce_partials %p {kind = "rstd", count = 64 : i64, epsilon = 0x7F800000 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c3: epsilon is finite (NaN), for "mean_rstd" too.
func.func @reduce_partials_nan_epsilon(%s: tensor<?x?xf32>, %q: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op epsilon must be finite and not negative, got nan}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 0x7FC00000 : f32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %m, %r : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// reduce_partials kind is "sum", "max", "lse", "rstd" or "mean_rstd".
func.func @reduce_partials_bad_kind(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{custom op 'coda.reduce_partials' 'coda.reduce_partials' op attribute 'kind' failed to satisfy constraint: string attribute one of "sum", "max", "lse", "rstd", "mean_rstd"}}
  %r = coda.reduce_partials %p {kind = "sum_squares"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// partial_reduce_c2: a negative tile_n is not positive either.
func.func @partial_reduce_negative_tile_n(%x: tensor<?x64xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op tile_n must be positive, got -32}}
  %p = coda.partial_reduce %x {kind = "sum", tile_n = -32 : i64} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// reduce_partials_c3: a negative count is not positive.
func.func @reduce_partials_negative_count(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.reduce_partials' op kind "rstd" needs a positive count}}
  %r = coda.reduce_partials %p {kind = "rstd", count = -64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// reduce_partials_c2: static rows behind a dynamic first partial must agree.
func.func @reduce_partials_rows_behind_dynamic(%s: tensor<?x?xf32>, %q: tensor<2x?xf32>) -> (tensor<4x1xf32>, tensor<8x1xf32>) {
  // expected-error @+1 {{'coda.reduce_partials' op result #0 has 4 rows but partials #1 has 2}}
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>, tensor<2x?xf32>) -> (tensor<4x1xf32>, tensor<8x1xf32>)
  return %m, %r : tensor<4x1xf32>, tensor<8x1xf32>
}

// -----

// partial_reduce_c1: the reduced columns must be static.
func.func @partial_reduce_dynamic_columns(%x: tensor<?x?xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'coda.partial_reduce' op x must have a static number of columns, got 'tensor<?x?xf32>'}}
  %p = coda.partial_reduce %x {tile_n = 32 : i64} : (tensor<?x?xf32>) -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}

// -----

// partial_sum_rows_c1: blocks of no rows.
func.func @partial_sum_rows_block_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'coda.partial_sum_rows' op block_rows must be positive, got 0}}
  %p = coda.partial_sum_rows %x {block_rows = 0 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %p : tensor<?x64xf32>
}

// -----

// partial_sum_rows_c2: the partials keep the columns.
func.func @partial_sum_rows_columns(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{'coda.partial_sum_rows' op expected partials of 64 columns, the columns of x, got 'tensor<?x32xf32>'}}
  %p = coda.partial_sum_rows %x {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
  return %p : tensor<?x32xf32>
}

// -----

// partial_sum_rows_c2: ceil(37 / 16) = 3 blocks.
func.func @partial_sum_rows_blocks(%x: tensor<37x64xbf16>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'coda.partial_sum_rows' op expected 3 partial rows for 37 rows in blocks of 16, got 2}}
  %p = coda.partial_sum_rows %x {block_rows = 16 : i64} : (tensor<37x64xbf16>) -> tensor<2x64xf32>
  return %p : tensor<2x64xf32>
}

// -----

// partial_sum_rows_c2: a static count of blocks for a dynamic count of rows.
func.func @partial_sum_rows_static_blocks(%x: tensor<?x64xf32>) -> tensor<3x64xf32> {
  // expected-error @+1 {{'coda.partial_sum_rows' op expected partial rows that are dynamic exactly when the rows of x are, got 'tensor<3x64xf32>' for x of type 'tensor<?x64xf32>'}}
  %p = coda.partial_sum_rows %x {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<3x64xf32>
  return %p : tensor<3x64xf32>
}
