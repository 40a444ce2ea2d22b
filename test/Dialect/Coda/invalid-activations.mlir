// RUN: coda-opt %s --split-input-file --verify-diagnostics

// silu_c1: the result has the element type of x.
func.func @silu_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.silu' op result element type 'f16' differs from x's 'bf16'}}
  %r = coda.silu %x : (tensor<2x8xbf16>) -> tensor<2x8xf16>
  return %r : tensor<2x8xf16>
}

// -----

// silu_c1: the result has the columns of x.
func.func @silu_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.silu' op result shape 2x16 differs from x's 2x8}}
  %r = coda.silu %x : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// silu_c1: the result has the rows of x.
func.func @silu_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.silu' op result shape 4x8 differs from x's 2x8}}
  %r = coda.silu %x : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// silu_c1: with dynamic rows the shapes print `?`.
func.func @silu_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.silu' op result shape ?x16 differs from x's ?x8}}
  %r = coda.silu %x : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// relu_c1: the result has the element type of x.
func.func @relu_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.relu' op result element type 'f16' differs from x's 'bf16'}}
  %r = coda.relu %x : (tensor<2x8xbf16>) -> tensor<2x8xf16>
  return %r : tensor<2x8xf16>
}

// -----

// relu_c1: the result has the columns of x.
func.func @relu_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.relu' op result shape 2x16 differs from x's 2x8}}
  %r = coda.relu %x : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// relu_c1: the result has the rows of x.
func.func @relu_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.relu' op result shape 4x8 differs from x's 2x8}}
  %r = coda.relu %x : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// relu_c1: with dynamic rows the shapes print `?`.
func.func @relu_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.relu' op result shape ?x16 differs from x's ?x8}}
  %r = coda.relu %x : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// sigmoid_c1: the result has the element type of x.
func.func @sigmoid_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.sigmoid' op result element type 'f16' differs from x's 'bf16'}}
  %r = coda.sigmoid %x : (tensor<2x8xbf16>) -> tensor<2x8xf16>
  return %r : tensor<2x8xf16>
}

// -----

// sigmoid_c1: the result has the columns of x.
func.func @sigmoid_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.sigmoid' op result shape 2x16 differs from x's 2x8}}
  %r = coda.sigmoid %x : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// sigmoid_c1: the result has the rows of x.
func.func @sigmoid_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.sigmoid' op result shape 4x8 differs from x's 2x8}}
  %r = coda.sigmoid %x : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// sigmoid_c1: with dynamic rows the shapes print `?`.
func.func @sigmoid_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.sigmoid' op result shape ?x16 differs from x's ?x8}}
  %r = coda.sigmoid %x : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// tanh_c1: the result has the element type of x.
func.func @tanh_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.tanh' op result element type 'f16' differs from x's 'bf16'}}
  %r = coda.tanh %x : (tensor<2x8xbf16>) -> tensor<2x8xf16>
  return %r : tensor<2x8xf16>
}

// -----

// tanh_c1: the result has the columns of x.
func.func @tanh_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.tanh' op result shape 2x16 differs from x's 2x8}}
  %r = coda.tanh %x : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// tanh_c1: the result has the rows of x.
func.func @tanh_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.tanh' op result shape 4x8 differs from x's 2x8}}
  %r = coda.tanh %x : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// tanh_c1: with dynamic rows the shapes print `?`.
func.func @tanh_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.tanh' op result shape ?x16 differs from x's ?x8}}
  %r = coda.tanh %x : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// gelu_c1: the result has the element type of x.
func.func @gelu_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.gelu' op result element type 'f16' differs from x's 'bf16'}}
  %r = coda.gelu %x : (tensor<2x8xbf16>) -> tensor<2x8xf16>
  return %r : tensor<2x8xf16>
}

// -----

// gelu_c1: the result has the columns of x.
func.func @gelu_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.gelu' op result shape 2x16 differs from x's 2x8}}
  %r = coda.gelu %x : (tensor<2x8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// gelu_c1: the result has the rows of x.
func.func @gelu_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.gelu' op result shape 4x8 differs from x's 2x8}}
  %r = coda.gelu %x : (tensor<2x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// gelu_c1: with dynamic rows the shapes print `?`.
func.func @gelu_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.gelu' op result shape ?x16 differs from x's ?x8}}
  %r = coda.gelu %x : (tensor<?x8xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// gelu_c1: the check also applies with approximate = "tanh".
func.func @gelu_tanh_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.gelu' op result element type 'f32' differs from x's 'bf16'}}
  %r = coda.gelu %x {approximate = "tanh"} : (tensor<2x8xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// gelu approximate (ODS Coda_StrEnumAttr): approximate is "none" or "tanh".
func.func @gelu_bad_approximate(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.gelu' 'coda.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute one of "none", "tanh"}}
  %r = coda.gelu %x {approximate = "erf"} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// gelu approximate (ODS Coda_StrEnumAttr): the spelling is case-sensitive.
func.func @gelu_approximate_case(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.gelu' 'coda.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute one of "none", "tanh"}}
  %r = coda.gelu %x {approximate = "Tanh"} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}
