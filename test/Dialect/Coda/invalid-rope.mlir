// RUN: coda-opt %s --split-input-file --verify-diagnostics

// rope_c1: head_dim must be positive (zero).
func.func @rope_head_dim_zero(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op head_dim must be positive and even, got 0}}
  %r = coda.rope %x, %cos, %sin {head_dim = 0 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c1: head_dim must be positive (negative).
func.func @rope_head_dim_negative(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op head_dim must be positive and even, got -4}}
  %r = coda.rope %x, %cos, %sin {head_dim = -4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c1: head_dim must be even.
func.func @rope_head_dim_odd(%x: tensor<2x8xbf16>, %cos: tensor<2x1xf32>, %sin: tensor<2x1xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op head_dim must be positive and even, got 3}}
  %r = coda.rope %x, %cos, %sin {head_dim = 3 : i64} : (tensor<2x8xbf16>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c2: head_dim divides the width of x.
func.func @rope_head_dim_not_dividing(%x: tensor<2x8xbf16>, %cos: tensor<2x3xf32>, %sin: tensor<2x3xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op head_dim = 6 does not divide the width 8 of x}}
  %r = coda.rope %x, %cos, %sin {head_dim = 6 : i64} : (tensor<2x8xbf16>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c3: cos has head_dim / 2 columns.
func.func @rope_cos_columns(%x: tensor<2x8xbf16>, %cos: tensor<2x4xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op cos has 4 columns but head_dim / 2 = 2}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x4xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c3: sin has head_dim / 2 columns.
func.func @rope_sin_columns(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x1xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op sin has 1 columns but head_dim / 2 = 2}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c3: cos has the rows of x.
func.func @rope_cos_rows(%x: tensor<2x8xbf16>, %cos: tensor<4x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op cos has 4 rows but x has 2}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c3: sin has the rows of x.
func.func @rope_sin_rows(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<1x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op sin has 1 rows but x has 2}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c4: the result has the element type of x.
func.func @rope_result_element_type(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.rope' op result element type 'f32' differs from x's 'bf16'}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// rope_c4: the result has the columns of x.
func.func @rope_result_columns(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.rope' op result shape 2x16 differs from x's 2x8}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// rope_c4: the result has the rows of x.
func.func @rope_result_rows(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.rope' op result shape 4x8 differs from x's 2x8}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64, style = "interleaved"} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// rope_c4: with dynamic rows the shapes print `?`.
func.func @rope_result_columns_dynamic(%x: tensor<?x8xbf16>, %cos: tensor<?x2xf32>, %sin: tensor<?x2xf32>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.rope' op result shape ?x16 differs from x's ?x8}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<?x8xbf16>, tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// rope style (ODS Coda_StrEnumAttr): style is "half" or "interleaved".
func.func @rope_bad_style(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.rope' 'coda.rope' op attribute 'style' failed to satisfy constraint: string attribute one of "half", "interleaved"}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64, style = "rotate_half"} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope tables (ODS Coda_F32Matrix): cos is kept in f32.
func.func @rope_cos_bf16(%x: tensor<2x8xbf16>, %cos: tensor<2x2xbf16>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op operand #1 must be 2D tensor of 32-bit float values, but got 'tensor<2x2xbf16>'}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xbf16>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope tables (ODS Coda_F32Matrix): sin is kept in f32.
func.func @rope_sin_f16(%x: tensor<2x8xbf16>, %cos: tensor<2x2xf32>, %sin: tensor<2x2xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op operand #2 must be 2D tensor of 32-bit float values, but got 'tensor<2x2xf16>'}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x2xf32>, tensor<2x2xf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// rope_c3: with a dynamic x, cos and sin must agree on static rows.
func.func @rope_rows_behind_dynamic(%x: tensor<?x8xbf16>, %c: tensor<2x2xf32>, %s: tensor<4x2xf32>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.rope' op sin has 4 rows but cos has 2}}
  %y = coda.rope %x, %c, %s {head_dim = 4 : i64} : (tensor<?x8xbf16>, tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<?x8xbf16>
  return %y : tensor<?x8xbf16>
}
