// RUN: coda-opt %s --split-input-file --verify-diagnostics

// concat_c1: there is at least one input.
func.func @concat_no_inputs() -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.concat' op needs at least one input}}
  %r = coda.concat : () -> tensor<?x8xbf16>
  return %r : tensor<?x8xbf16>
}

// -----

// concat_c2: all inputs share the element type.
func.func @concat_element_type(%x0: tensor<2x8xbf16>, %x1: tensor<2x8xf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op input #1 has element type 'f16' but input #0 has 'bf16'}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<2x8xf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// concat_c2: all inputs share the row count.
func.func @concat_rows(%x0: tensor<2x8xbf16>, %x1: tensor<4x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op input #1 has 4 rows but input #0 has 2}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// concat_c2: every input is compared with input #0, here the third.
func.func @concat_rows_third(%x0: tensor<2x8xbf16>, %x1: tensor<2x8xbf16>, %x2: tensor<3x8xbf16>) -> tensor<2x24xbf16> {
  // expected-error @+1 {{'coda.concat' op input #2 has 3 rows but input #0 has 2}}
  %r = coda.concat %x0, %x1, %x2 : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<3x8xbf16>) -> tensor<2x24xbf16>
  return %r : tensor<2x24xbf16>
}

// -----

// concat_c2: the element type of the third input.
func.func @concat_element_type_third(%x0: tensor<2x8xbf16>, %x1: tensor<2x8xbf16>, %x2: tensor<2x8xf32>) -> tensor<2x24xbf16> {
  // expected-error @+1 {{'coda.concat' op input #2 has element type 'f32' but input #0 has 'bf16'}}
  %r = coda.concat %x0, %x1, %x2 : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xf32>) -> tensor<2x24xbf16>
  return %r : tensor<2x24xbf16>
}

// -----

// concat_c3: the result has the sum of the input widths.
func.func @concat_result_columns(%x0: tensor<2x8xbf16>, %x1: tensor<2x16xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op expected result shape 2x24, got 'tensor<2x16xbf16>'}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<2x16xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// concat_c3: the result has the rows of the inputs.
func.func @concat_result_rows(%x0: tensor<2x8xbf16>, %x1: tensor<2x8xbf16>) -> tensor<4x16xbf16> {
  // expected-error @+1 {{'coda.concat' op expected result shape 2x16, got 'tensor<4x16xbf16>'}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// -----

// concat_c3: with dynamic rows the expected shape prints `?`.
func.func @concat_result_columns_dynamic(%x0: tensor<?x8xbf16>, %x1: tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.concat' op expected result shape ?x16, got 'tensor<?x8xbf16>'}}
  %r = coda.concat %x0, %x1 : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x8xbf16>
  return %r : tensor<?x8xbf16>
}

// -----

// concat_c3: a single input still needs the matching width.
func.func @concat_single_result_columns(%x0: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op expected result shape 2x8, got 'tensor<2x16xbf16>'}}
  %r = coda.concat %x0 : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// concat_c3: the result has the element type of the inputs.
func.func @concat_result_element_type(%x0: tensor<2x8xbf16>, %x1: tensor<2x8xbf16>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'coda.concat' op result has element type 'f32' but input #0 has 'bf16'}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// -----

// concat_c2: with a dynamic first input, the static row counts of the others must agree.
func.func @concat_rows_behind_dynamic(%a: tensor<?x8xbf16>, %b: tensor<2x8xbf16>, %c: tensor<4x8xbf16>) -> tensor<?x24xbf16> {
  // expected-error @+1 {{'coda.concat' op input #2 has 4 rows but input #1 has 2}}
  %y = coda.concat %a, %b, %c : (tensor<?x8xbf16>, tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<?x24xbf16>
  return %y : tensor<?x24xbf16>
}

// -----

// concat_c3: the result's static rows must agree with a static input behind a dynamic one.
func.func @concat_result_rows_behind_dynamic(%a: tensor<?x8xbf16>, %b: tensor<2x8xbf16>) -> tensor<4x16xbf16> {
  // expected-error @+1 {{'coda.concat' op the result has 4 rows but input #1 has 2}}
  %y = coda.concat %a, %b : (tensor<?x8xbf16>, tensor<2x8xbf16>) -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}
