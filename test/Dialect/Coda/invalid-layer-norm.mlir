// RUN: coda-opt %s --split-input-file --verify-diagnostics

// layer_norm_c1: gamma has D = dim(x, 1) elements.
func.func @layer_norm_gamma_size(%x: tensor<2x8xbf16>, %g: tensor<16xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op gamma has 16 elements but the rows have 8 features}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<16xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c1: a gamma of dynamic size does not have D elements.
func.func @layer_norm_gamma_dynamic(%x: tensor<2x8xbf16>, %g: tensor<?xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op gamma has ? elements but the rows have 8 features}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<?xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c1: beta has D = dim(x, 1) elements.
func.func @layer_norm_beta_size(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op beta has 4 elements but the rows have 8 features}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<4xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c1: a beta of dynamic size does not have D elements.
func.func @layer_norm_beta_dynamic(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op beta has ? elements but the rows have 8 features}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<?xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c2: the result has the element type of x.
func.func @layer_norm_result_element_type(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.layer_norm' op result element type 'f16' differs from x's 'bf16'}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xf16>
  return %y : tensor<2x8xf16>
}

// -----

// layer_norm_c2: the result has the columns of x.
func.func @layer_norm_result_columns(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op result shape 2x16 differs from x's 2x8}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x16xbf16>
  return %y : tensor<2x16xbf16>
}

// -----

// layer_norm_c2: the result has the rows of x.
func.func @layer_norm_result_rows(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op result shape 4x8 differs from x's 2x8}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// layer_norm_c2: with dynamic rows the shapes print `?`.
func.func @layer_norm_result_columns_dynamic(%x: tensor<?x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op result shape ?x16 differs from x's ?x8}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// layer_norm_c3: gamma has the element type of x.
func.func @layer_norm_gamma_element_type(%x: tensor<2x8xbf16>, %g: tensor<8xf32>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op gamma has element type 'f32' but x has 'bf16'}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xf32>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c3: beta has the element type of x.
func.func @layer_norm_beta_element_type(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op beta has element type 'f16' but x has 'bf16'}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c4: epsilon must not be negative.
func.func @layer_norm_epsilon_negative(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op epsilon must be finite and not negative, got -2.500000e-01}}
  %y = coda.layer_norm %x, %g, %b {epsilon = -2.5e-01 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c4: epsilon must be finite (+inf).
func.func @layer_norm_epsilon_inf(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op epsilon must be finite and not negative, got INF}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 0x7F800000 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// layer_norm_c4: epsilon must be finite (NaN).
func.func @layer_norm_epsilon_nan(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.layer_norm' op epsilon must be finite and not negative, got nan}}
  %y = coda.layer_norm %x, %g, %b {epsilon = 0x7FC00000 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}
