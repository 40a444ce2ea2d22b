// RUN: coda-opt %s --split-input-file --verify-diagnostics

// swiglu_c1: gate and up have the same columns.
func.func @swiglu_columns(%gate: tensor<2x8xbf16>, %up: tensor<2x16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op gate has 8 columns but up has 16}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<2x16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// swiglu_c1: gate and up have the same rows.
func.func @swiglu_rows(%gate: tensor<2x8xbf16>, %up: tensor<4x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op up has 4 rows but gate has 2}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// swiglu_c1: gate and up have the same element type.
func.func @swiglu_element_type(%gate: tensor<2x8xbf16>, %up: tensor<2x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op up has element type 'f16' but gate has 'bf16'}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<2x8xf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// swiglu_c2: the result has the element type of gate.
func.func @swiglu_result_element_type(%gate: tensor<2x8xbf16>, %up: tensor<2x8xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.swiglu' op result element type 'f32' differs from gate's 'bf16'}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// swiglu_c2: the result has the columns of gate.
func.func @swiglu_result_columns(%gate: tensor<2x8xbf16>, %up: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.swiglu' op result shape 2x16 differs from gate's 2x8}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// swiglu_c2: the result has the rows of gate.
func.func @swiglu_result_rows(%gate: tensor<2x8xbf16>, %up: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op result shape 4x8 differs from gate's 2x8}}
  %r = coda.swiglu %gate, %up : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// swiglu_c2: with dynamic rows the shapes print `?`.
func.func @swiglu_result_columns_dynamic(%gate: tensor<?x8xbf16>, %up: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.swiglu' op result shape ?x16 differs from gate's ?x8}}
  %r = coda.swiglu %gate, %up : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// swiglu_c1: with a dynamic gate, up and the result must agree on static rows.
func.func @swiglu_rows_behind_dynamic(%g: tensor<?x8xbf16>, %u: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op the result has 4 rows but up has 2}}
  %y = coda.swiglu %g, %u : (tensor<?x8xbf16>, tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}
