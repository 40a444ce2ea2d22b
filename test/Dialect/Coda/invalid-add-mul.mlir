// RUN: coda-opt %s --split-input-file --verify-diagnostics

// add_c1: a broadcast vector b has the N columns of a.
func.func @add_vector_size(%a: tensor<2x8xbf16>, %b: tensor<16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op broadcast operand b has 16 elements but a has 8 columns}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c1: a broadcast vector b of dynamic size does not have N elements.
func.func @add_vector_dynamic(%a: tensor<2x8xbf16>, %b: tensor<?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op broadcast operand b has ? elements but a has 8 columns}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<?xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c1: a matrix b has the N columns of a.
func.func @add_matrix_columns(%a: tensor<2x8xbf16>, %b: tensor<2x16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op b has 16 columns but a has 8}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<2x16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c1: a matrix b has the M rows of a.
func.func @add_matrix_rows(%a: tensor<2x8xbf16>, %b: tensor<4x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op b has 4 rows but a has 2}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c2: the result has the element type of a.
func.func @add_result_element_type(%a: tensor<2x8xbf16>, %b: tensor<2x8xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.add' op result element type 'f32' differs from a's 'bf16'}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// add_c2: the result has the columns of a.
func.func @add_result_columns(%a: tensor<2x8xbf16>, %b: tensor<8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.add' op result shape 2x16 differs from a's 2x8}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// add_c2: the result has the rows of a.
func.func @add_result_rows(%a: tensor<2x8xbf16>, %b: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.add' op result shape 4x8 differs from a's 2x8}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// add_c2: with dynamic rows the shapes print `?`.
func.func @add_result_columns_dynamic(%a: tensor<?x8xbf16>, %b: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.add' op result shape ?x16 differs from a's ?x8}}
  %r = coda.add %a, %b : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// add_c3: a matrix b has the element type of a.
func.func @add_matrix_element_type(%a: tensor<2x8xbf16>, %b: tensor<2x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op b has element type 'f16' but a has 'bf16'}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<2x8xf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c3: a broadcast vector b has the element type of a.
func.func @add_vector_element_type(%a: tensor<2x8xbf16>, %b: tensor<8xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op b has element type 'f32' but a has 'bf16'}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<8xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c1: a broadcast vector b has the N columns of a.
func.func @mul_vector_size(%a: tensor<2x8xbf16>, %b: tensor<16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op broadcast operand b has 16 elements but a has 8 columns}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c1: a broadcast vector b of dynamic size does not have N elements.
func.func @mul_vector_dynamic(%a: tensor<2x8xbf16>, %b: tensor<?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op broadcast operand b has ? elements but a has 8 columns}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<?xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c1: a matrix b has the N columns of a.
func.func @mul_matrix_columns(%a: tensor<2x8xbf16>, %b: tensor<2x16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op b has 16 columns but a has 8}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<2x16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c1: a matrix b has the M rows of a.
func.func @mul_matrix_rows(%a: tensor<2x8xbf16>, %b: tensor<4x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op b has 4 rows but a has 2}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c2: the result has the element type of a.
func.func @mul_result_element_type(%a: tensor<2x8xbf16>, %b: tensor<2x8xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.mul' op result element type 'f32' differs from a's 'bf16'}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// mul_c2: the result has the columns of a.
func.func @mul_result_columns(%a: tensor<2x8xbf16>, %b: tensor<8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.mul' op result shape 2x16 differs from a's 2x8}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// mul_c2: the result has the rows of a.
func.func @mul_result_rows(%a: tensor<2x8xbf16>, %b: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.mul' op result shape 4x8 differs from a's 2x8}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// mul_c2: with dynamic rows the shapes print `?`.
func.func @mul_result_columns_dynamic(%a: tensor<?x8xbf16>, %b: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.mul' op result shape ?x16 differs from a's ?x8}}
  %r = coda.mul %a, %b : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// mul_c3: a matrix b has the element type of a.
func.func @mul_matrix_element_type(%a: tensor<2x8xbf16>, %b: tensor<2x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op b has element type 'f16' but a has 'bf16'}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<2x8xf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// mul_c3: a broadcast vector b has the element type of a.
func.func @mul_vector_element_type(%a: tensor<2x8xbf16>, %b: tensor<8xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op b has element type 'f32' but a has 'bf16'}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<8xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// add_c1: with a dynamic a, b and the result must agree on static rows.
func.func @add_rows_behind_dynamic(%a: tensor<?x8xbf16>, %b: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.add' op b has 2 rows but the result has 4}}
  %y = coda.add %a, %b : (tensor<?x8xbf16>, tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// mul_c1: a per-row column [M, 1] must have the rows of a.
func.func @mul_row_column_rows(%a: tensor<3x8xf32>, %r: tensor<2x1xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'coda.mul' op b has 2 rows but a has 3}}
  %y = coda.mul %a, %r : (tensor<3x8xf32>, tensor<2x1xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
