// RUN: coda-opt %s --split-input-file --verify-diagnostics

// slice_c1: offset must not be negative.
func.func @slice_negative_offset(%x: tensor<2x8xbf16>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'coda.slice' op offset must not be negative, got -1}}
  %r = coda.slice %x {offset = -1 : i64, size = 4 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// slice_c1: size must be positive (zero).
func.func @slice_zero_size(%x: tensor<2x8xbf16>) -> tensor<2x1xbf16> {
  // expected-error @+1 {{'coda.slice' op size must be positive, got 0}}
  %r = coda.slice %x {offset = 2 : i64, size = 0 : i64} : (tensor<2x8xbf16>) -> tensor<2x1xbf16>
  return %r : tensor<2x1xbf16>
}

// -----

// slice_c1: size must be positive (negative).
func.func @slice_negative_size(%x: tensor<2x8xbf16>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'coda.slice' op size must be positive, got -2}}
  %r = coda.slice %x {offset = 6 : i64, size = -2 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// slice_c1: offset + size must not exceed dim(x, 1).
func.func @slice_out_of_range(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.slice' op columns from offset 4 of size 8 do not fit in the 8 columns of x}}
  %r = coda.slice %x {offset = 4 : i64, size = 8 : i64} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// slice_c1: a range starting at the width is out of range.
func.func @slice_offset_at_width(%x: tensor<2x8xbf16>) -> tensor<2x1xbf16> {
  // expected-error @+1 {{'coda.slice' op columns from offset 8 of size 1 do not fit in the 8 columns of x}}
  %r = coda.slice %x {offset = 8 : i64, size = 1 : i64} : (tensor<2x8xbf16>) -> tensor<2x1xbf16>
  return %r : tensor<2x1xbf16>
}

// -----

// slice_c2: the result has size columns.
func.func @slice_result_columns(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.slice' op expected result shape 2x4, got 'tensor<2x8xbf16>'}}
  %r = coda.slice %x {offset = 0 : i64, size = 4 : i64} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// slice_c2: the result has the rows of x.
func.func @slice_result_rows(%x: tensor<2x8xbf16>) -> tensor<4x4xbf16> {
  // expected-error @+1 {{'coda.slice' op expected result shape 2x4, got 'tensor<4x4xbf16>'}}
  %r = coda.slice %x {offset = 0 : i64, size = 4 : i64} : (tensor<2x8xbf16>) -> tensor<4x4xbf16>
  return %r : tensor<4x4xbf16>
}

// -----

// slice_c2: with dynamic rows the expected shape prints `?`.
func.func @slice_result_columns_dynamic(%x: tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.slice' op expected result shape ?x4, got 'tensor<?x8xbf16>'}}
  %r = coda.slice %x {offset = 0 : i64, size = 4 : i64} : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
  return %r : tensor<?x8xbf16>
}

// -----

// slice_c2: the result has the element type of x.
func.func @slice_result_element_type(%x: tensor<2x8xbf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'coda.slice' op result has element type 'f32' but x has 'bf16'}}
  %r = coda.slice %x {offset = 0 : i64, size = 4 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// slice_c1: a huge offset is reported without overflow.
func.func @slice_huge_offset(%x: tensor<2x8xbf16>) -> tensor<2x1xbf16> {
  // expected-error @+1 {{'coda.slice' op columns from offset 9223372036854775807 of size 1 do not fit in the 8 columns of x}}
  %y = coda.slice %x {offset = 9223372036854775807 : i64, size = 1 : i64} : (tensor<2x8xbf16>) -> tensor<2x1xbf16>
  return %y : tensor<2x1xbf16>
}
