// RUN: coda-opt %s --split-input-file --verify-diagnostics

// norm_statistics_c1: with gamma, an RMSNorm gives h and rstd.
func.func @statistics_missing_h(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.norm_statistics' op expected 2 results (h, rstd), got 1}}
  %r = coda.norm_statistics %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// norm_statistics_c1: a LayerNorm also gives the mean.
func.func @statistics_missing_mean(%x: tensor<?x64xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.norm_statistics' op expected 2 results (rstd, mean), got 1}}
  %r = coda.norm_statistics %x {kind = "layer_norm", epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// norm_statistics_c2: h has the type of x.
func.func @statistics_h_type(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> (tensor<?x64xf32>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.norm_statistics' op h must have the columns and element type of x, got 'tensor<?x64xf32>'}}
  %h, %r = coda.norm_statistics %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> (tensor<?x64xf32>, tensor<?x1xf32>)
  return %h, %r : tensor<?x64xf32>, tensor<?x1xf32>
}

// -----

// norm_statistics_c2: a statistic is [M, 1] f32.
func.func @statistics_shape(%x: tensor<?x64xbf16>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'coda.norm_statistics' op result #0 is a per-row statistic and must be [M, 1] f32, got 'tensor<?x2xf32>'}}
  %r = coda.norm_statistics %x {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// norm_statistics_c2: gamma has one element per column.
func.func @statistics_gamma(%x: tensor<?x64xbf16>, %g: tensor<32xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xf32>) {
  // expected-error @+1 {{'coda.norm_statistics' op gamma has 32 elements but the rows have 64 features}}
  %h, %r = coda.norm_statistics %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<32xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xf32>)
  return %h, %r : tensor<?x64xbf16>, tensor<?x1xf32>
}

// -----

// norm_statistics_c2: the statistics have the rows of x.
func.func @statistics_rows(%x: tensor<4x64xbf16>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'coda.norm_statistics' op result #0 has 3 rows but x has 4}}
  %r = coda.norm_statistics %x {epsilon = 1.0e-05 : f32} : (tensor<4x64xbf16>) -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
}

// -----

// norm_statistics_c3: epsilon is not negative.
func.func @statistics_epsilon(%x: tensor<?x64xbf16>) -> tensor<?x1xf32> {
  // expected-error @+1 {{'coda.norm_statistics' op epsilon must be finite and not negative, got -1.000000e+00}}
  %r = coda.norm_statistics %x {epsilon = -1.0 : f32} : (tensor<?x64xbf16>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// partial_gather_c1: one target per row.
func.func @gather_rows(%x: tensor<4x64xf32>, %t: tensor<3xi64>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'coda.partial_gather' op targets has 3 rows but x has 4}}
  %p = coda.partial_gather %x, %t : (tensor<4x64xf32>, tensor<3xi64>) -> tensor<4x?xf32>
  return %p : tensor<4x?xf32>
}

// -----

// partial_gather_c2: a static number of partials follows tile_n.
func.func @gather_blocks(%x: tensor<?x64xf32>, %t: tensor<?xi64>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'coda.partial_gather' op expected 2 partials per row for 64 columns in blocks of 32, got 3}}
  %p = coda.partial_gather %x, %t {tile_n = 32 : i64} : (tensor<?x64xf32>, tensor<?xi64>) -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}

// -----

// cross_entropy_from_partials_c1: the partials and targets share rows.
func.func @loss_rows(%l: tensor<4x?xf32>, %p: tensor<3x?xf32>, %t: tensor<4xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy_from_partials' op target_logits has 3 rows but lse has 4}}
  %loss = coda.cross_entropy_from_partials %l, %p, %t : (tensor<4x?xf32>, tensor<3x?xf32>, tensor<4xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// cross_entropy_from_partials_c2: "none" gives one loss per row.
func.func @loss_none_scalar(%l: tensor<?x?xf32>, %p: tensor<?x?xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy_from_partials' op reduction "none" expects a result of type tensor<Mxf32>, got 'tensor<f32>'}}
  %loss = coda.cross_entropy_from_partials %l, %p, %t {reduction = "none"} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// cross_entropy_from_partials_c2: "mean" gives a scalar.
func.func @loss_mean_vector(%l: tensor<?x?xf32>, %p: tensor<?x?xf32>, %t: tensor<?xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'coda.cross_entropy_from_partials' op reduction "mean" expects a result of type tensor<f32>, got 'tensor<?xf32>'}}
  %loss = coda.cross_entropy_from_partials %l, %p, %t : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

// -----

// add_outer_c1: u is a per-row column.
func.func @outer_u(%a: tensor<?x16xf32>, %u: tensor<?x2xf32>, %v: tensor<16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'coda.add_outer' op u must be a per-row column [M, 1], got 'tensor<?x2xf32>'}}
  %y = coda.add_outer %a, %u, %v : (tensor<?x16xf32>, tensor<?x2xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// add_outer_c1: v has one element per column.
func.func @outer_v(%a: tensor<?x16xf32>, %u: tensor<?x1xf32>, %v: tensor<8xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'coda.add_outer' op v has 8 elements but a has 16 columns}}
  %y = coda.add_outer %a, %u, %v : (tensor<?x16xf32>, tensor<?x1xf32>, tensor<8xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// add_outer_c1: u has the rows of a.
func.func @outer_rows(%a: tensor<4x16xf32>, %u: tensor<3x1xf32>, %v: tensor<16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'coda.add_outer' op u has 3 rows but a has 4}}
  %y = coda.add_outer %a, %u, %v : (tensor<4x16xf32>, tensor<3x1xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// add_outer_c3: one element type.
func.func @outer_types(%a: tensor<?x16xf32>, %u: tensor<?x1xbf16>, %v: tensor<16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'coda.add_outer' op u has element type 'bf16' but a has 'f32'}}
  %y = coda.add_outer %a, %u, %v : (tensor<?x16xf32>, tensor<?x1xbf16>, tensor<16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// mul_outer_c1: u is a per-row column.
func.func @mul_outer_u(%a: tensor<?x16xbf16>, %u: tensor<?x2xf32>, %v: tensor<16xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.mul_outer' op u must be a per-row column [M, 1], got 'tensor<?x2xf32>'}}
  %y = coda.mul_outer %a, %u, %v : (tensor<?x16xbf16>, tensor<?x2xf32>, tensor<16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// mul_outer_c1: v has one element per column.
func.func @mul_outer_v(%a: tensor<?x16xbf16>, %u: tensor<?x1xf32>, %v: tensor<8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.mul_outer' op v has 8 elements but a has 16 columns}}
  %y = coda.mul_outer %a, %u, %v : (tensor<?x16xbf16>, tensor<?x1xf32>, tensor<8xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// mul_outer_c1: u has the rows of a.
func.func @mul_outer_rows(%a: tensor<4x16xbf16>, %u: tensor<3x1xf32>, %v: tensor<16xbf16>) -> tensor<4x16xbf16> {
  // expected-error @+1 {{'coda.mul_outer' op u has 3 rows but a has 4}}
  %y = coda.mul_outer %a, %u, %v : (tensor<4x16xbf16>, tensor<3x1xf32>, tensor<16xbf16>) -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}

// -----

// mul_outer_c2: the result has the type of a.
func.func @mul_outer_result(%a: tensor<?x16xbf16>, %u: tensor<?x1xf32>, %v: tensor<16xbf16>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'coda.mul_outer' op result element type 'f32' differs from a's 'bf16'}}
  %y = coda.mul_outer %a, %u, %v : (tensor<?x16xbf16>, tensor<?x1xf32>, tensor<16xbf16>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// mul_outer_c3: u is f32 or a's element type.
func.func @mul_outer_u_type(%a: tensor<?x16xf32>, %u: tensor<?x1xbf16>, %v: tensor<16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'coda.mul_outer' op u must have a's element type 'f32' or f32, got 'bf16'}}
  %y = coda.mul_outer %a, %u, %v : (tensor<?x16xf32>, tensor<?x1xbf16>, tensor<16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// mul_outer_c3: v has a's element type.
func.func @mul_outer_v_type(%a: tensor<?x16xbf16>, %u: tensor<?x1xf32>, %v: tensor<16xf32>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.mul_outer' op v has element type 'f32' but a has 'bf16'}}
  %y = coda.mul_outer %a, %u, %v : (tensor<?x16xbf16>, tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}
