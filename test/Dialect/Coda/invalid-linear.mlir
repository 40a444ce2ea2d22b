// RUN: coda-opt %s --split-input-file --verify-diagnostics

// linear_c6: the weight must have a static row count (N).
func.func @linear_dynamic_weight(%x: tensor<2x8xbf16>, %w: tensor<?x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op weight w must have a static shape, got 'tensor<?x8xbf16>'}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<?x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c1: K must agree between x and w.
func.func @linear_k_mismatch(%x: tensor<2x16xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op contraction size mismatch: x has K = 16 but w has K = 8}}
  %y = coda.linear %x, %w : (tensor<2x16xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c2: the result has N = dim(w, 0) columns.
func.func @linear_result_columns(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.linear' op expected result shape 2x8, got 'tensor<2x16xbf16>'}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x16xbf16>
  return %y : tensor<2x16xbf16>
}

// -----

// linear_c2: the result has the M = dim(x, 0) rows of x.
func.func @linear_result_rows(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.linear' op expected result shape 2x8, got 'tensor<4x8xbf16>'}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// linear_c2: with a dynamic row count the expected shape prints `?`.
func.func @linear_result_columns_dynamic(%x: tensor<?x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.linear' op expected result shape ?x8, got 'tensor<?x16xbf16>'}}
  %y = coda.linear %x, %w : (tensor<?x8xbf16>, tensor<8x8xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// linear_c3: the bias has N elements.
func.func @linear_bias_size(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op bias has 16 elements but the result has 8 columns}}
  %y = coda.linear %x, %w, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<16xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c3: a bias of dynamic size does not have N elements.
func.func @linear_bias_dynamic(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op bias has ? elements but the result has 8 columns}}
  %y = coda.linear %x, %w, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<?xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c4: w has the element type of x.
func.func @linear_weight_element_type(%x: tensor<2x8xbf16>, %w: tensor<8x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op w has element type 'f16' but x has 'bf16'}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<8x8xf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c4: the bias has the element type of x.
func.func @linear_bias_element_type(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<8xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op bias has element type 'f32' but x has 'bf16'}}
  %y = coda.linear %x, %w, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8xf32>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c5: K of a bf16 x must be a multiple of 8 (16-byte TMA rows).
func.func @linear_tma_k_bf16(%x: tensor<2x4xbf16>, %w: tensor<8x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op K = 4 gives rows of 8 bytes in 'bf16'; TMA needs a multiple of 16 bytes (K a multiple of 8)}}
  %y = coda.linear %x, %w : (tensor<2x4xbf16>, tensor<8x4xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear_c5: K of an f16 x must be a multiple of 8 (16-byte TMA rows).
func.func @linear_tma_k_f16(%x: tensor<2x12xf16>, %w: tensor<8x12xf16>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'coda.linear' op K = 12 gives rows of 24 bytes in 'f16'; TMA needs a multiple of 16 bytes (K a multiple of 8)}}
  %y = coda.linear %x, %w : (tensor<2x12xf16>, tensor<8x12xf16>) -> tensor<2x8xf16>
  return %y : tensor<2x8xf16>
}

// -----

// linear_c5: K of an f32 x must be a multiple of 4 (16-byte TMA rows).
func.func @linear_tma_k_f32(%x: tensor<2x2xf32>, %w: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'coda.linear' op K = 2 gives rows of 8 bytes in 'f32'; TMA needs a multiple of 16 bytes (K a multiple of 4)}}
  %y = coda.linear %x, %w : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// linear_c5: N of a bf16 result must be a multiple of 8 (16-byte TMA rows).
func.func @linear_tma_n_bf16(%x: tensor<2x8xbf16>, %w: tensor<4x8xbf16>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'coda.linear' op N = 4 gives rows of 8 bytes in 'bf16'; TMA needs a multiple of 16 bytes (N a multiple of 8)}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4xbf16>
  return %y : tensor<2x4xbf16>
}

// -----

// linear_c5: N is checked in the result's element type: f32 needs a multiple of 4.
func.func @linear_tma_n_f32_result(%x: tensor<2x8xbf16>, %w: tensor<2x8xbf16>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'coda.linear' op N = 2 gives rows of 8 bytes in 'f32'; TMA needs a multiple of 16 bytes (N a multiple of 4)}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
