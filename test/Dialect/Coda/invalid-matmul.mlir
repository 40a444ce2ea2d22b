// RUN: coda-opt %s --split-input-file --verify-diagnostics

// matmul_c5: b must have a static row count (K).
func.func @matmul_dynamic_b(%a: tensor<2x8xbf16>, %b: tensor<?x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.matmul' op b must have a static shape, got 'tensor<?x8xbf16>'}}
  %y = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<?x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// matmul_c1: dim(a, 1) must equal dim(b, 0).
func.func @matmul_k_mismatch(%a: tensor<2x8xbf16>, %b: tensor<16x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.matmul' op contraction size mismatch: a has K = 8 but b has K = 16}}
  %y = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<16x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// matmul_c2: the result has N = dim(b, 1) columns.
func.func @matmul_result_columns(%a: tensor<2x8xbf16>, %b: tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.matmul' op expected result shape 2x8, got 'tensor<2x16xbf16>'}}
  %y = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x16xbf16>
  return %y : tensor<2x16xbf16>
}

// -----

// matmul_c2: the result has the M = dim(a, 0) rows of a.
func.func @matmul_result_rows(%a: tensor<2x8xbf16>, %b: tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.matmul' op expected result shape 2x8, got 'tensor<4x8xbf16>'}}
  %y = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// matmul_c2: with a dynamic row count the expected shape prints `?`.
func.func @matmul_result_columns_dynamic(%a: tensor<?x8xbf16>, %b: tensor<8x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.matmul' op expected result shape ?x8, got 'tensor<?x16xbf16>'}}
  %y = coda.matmul %a, %b : (tensor<?x8xbf16>, tensor<8x8xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// matmul_c3: b has the element type of a.
func.func @matmul_element_type(%a: tensor<2x8xbf16>, %b: tensor<8x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.matmul' op b has element type 'f16' but a has 'bf16'}}
  %y = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<8x8xf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// matmul_c4: K of a bf16 a must be a multiple of 8 (16-byte TMA rows).
func.func @matmul_tma_k_bf16(%a: tensor<2x4xbf16>, %b: tensor<4x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.matmul' op K = 4 gives rows of 8 bytes in 'bf16'; TMA needs a multiple of 16 bytes (K a multiple of 8)}}
  %y = coda.matmul %a, %b : (tensor<2x4xbf16>, tensor<4x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// matmul_c4: K of an f32 a must be a multiple of 4 (16-byte TMA rows).
func.func @matmul_tma_k_f32(%a: tensor<2x2xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'coda.matmul' op K = 2 gives rows of 8 bytes in 'f32'; TMA needs a multiple of 16 bytes (K a multiple of 4)}}
  %y = coda.matmul %a, %b : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// matmul_c4: N of an f16 b must be a multiple of 8 (16-byte TMA rows of b).
func.func @matmul_tma_n_b(%a: tensor<2x8xf16>, %b: tensor<8x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'coda.matmul' op N = 4 gives rows of 8 bytes in 'f16'; TMA needs a multiple of 16 bytes (N a multiple of 8)}}
  %y = coda.matmul %a, %b : (tensor<2x8xf16>, tensor<8x4xf16>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// matmul_c4: N is also checked in the result's type: 4 f32 columns are 16 bytes, 4 bf16 are not.
func.func @matmul_tma_n_result(%a: tensor<2x4xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'coda.matmul' op N = 4 gives rows of 8 bytes in 'bf16'; TMA needs a multiple of 16 bytes (N a multiple of 8)}}
  %y = coda.matmul %a, %b : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xbf16>
  return %y : tensor<2x4xbf16>
}
