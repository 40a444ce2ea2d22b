// RUN: coda-opt %s --split-input-file --verify-diagnostics

// scale_c1: the result has the element type of x.
func.func @scale_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.scale' op result element type 'f32' differs from x's 'bf16'}}
  %r = coda.scale %x {factor = 2.0 : f32} : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// scale_c1: the result has the columns of x.
func.func @scale_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.scale' op result shape 2x16 differs from x's 2x8}}
  %r = coda.scale %x {factor = 2.0 : f32} : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// scale_c1: the result has the rows of x.
func.func @scale_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.scale' op result shape 4x8 differs from x's 2x8}}
  %r = coda.scale %x {factor = 2.0 : f32} : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// scale_c1: with dynamic rows the shapes print `?`.
func.func @scale_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.scale' op result shape ?x16 differs from x's ?x8}}
  %r = coda.scale %x {factor = 2.0 : f32} : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// scale_c2: factor must be finite (+inf).
func.func @scale_factor_inf(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.scale' op factor must be finite, got INF}}
  %r = coda.scale %x {factor = 0x7F800000 : f32} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// scale_c2: factor must be finite (-inf).
func.func @scale_factor_neg_inf(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.scale' op factor must be finite, got -INF}}
  %r = coda.scale %x {factor = 0xFF800000 : f32} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// scale_c2: factor must be finite (NaN).
func.func @scale_factor_nan(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.scale' op factor must be finite, got nan}}
  %r = coda.scale %x {factor = 0x7FC00000 : f32} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}
