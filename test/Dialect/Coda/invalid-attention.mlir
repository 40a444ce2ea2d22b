// RUN: coda-opt %s --split-input-file --verify-diagnostics

// attention_c1: num_heads is positive.
func.func @attention_num_heads_zero(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op num_heads must be positive, got 0}}
  %r = coda.attention %q, %k, %v {num_heads = 0 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: num_heads is positive (negative).
func.func @attention_num_heads_negative(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op num_heads must be positive, got -2}}
  %r = coda.attention %q, %k, %v {num_heads = -2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: num_kv_heads is positive.
func.func @attention_num_kv_heads_zero(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op num_kv_heads must be positive, got 0}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 0 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: head_dim is positive.
func.func @attention_head_dim_zero(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op head_dim must be positive, got 0}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 0 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: seq_len is positive.
func.func @attention_seq_len_zero(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op seq_len must be positive, got 0}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 0 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: seq_len is positive (negative).
func.func @attention_seq_len_negative(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op seq_len must be positive, got -1}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = -1 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c1: num_kv_heads divides num_heads.
func.func @attention_kv_not_dividing(%q: tensor<2x16xbf16>, %k: tensor<2x12xbf16>, %v: tensor<2x12xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.attention' op num_kv_heads = 3 does not divide num_heads = 4}}
  %r = coda.attention %q, %k, %v {num_heads = 4 : i64, num_kv_heads = 3 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x16xbf16>, tensor<2x12xbf16>, tensor<2x12xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// attention_c1: more kv heads than query heads do not divide them.
func.func @attention_kv_more_than_heads(%q: tensor<2x8xbf16>, %k: tensor<2x16xbf16>, %v: tensor<2x16xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op num_kv_heads = 4 does not divide num_heads = 2}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 4 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x16xbf16>, tensor<2x16xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c2: q is [M, num_heads * head_dim].
func.func @attention_q_columns(%q: tensor<2x16xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.attention' op q has 16 columns but num_heads * head_dim = 8}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x16xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// attention_c2: k is [M, num_kv_heads * head_dim].
func.func @attention_k_columns(%q: tensor<2x8xbf16>, %k: tensor<2x8xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op k has 8 columns but num_kv_heads * head_dim = 4}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c2: v is [M, num_kv_heads * head_dim].
func.func @attention_v_columns(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op v has 8 columns but num_kv_heads * head_dim = 4}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c2: k has the rows of q.
func.func @attention_k_rows(%q: tensor<2x8xbf16>, %k: tensor<4x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op k has 4 rows but q has 2}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<4x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c2: v has the rows of q.
func.func @attention_v_rows(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<4x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op v has 4 rows but q has 2}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<4x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c3: k has the element type of q.
func.func @attention_k_element_type(%q: tensor<2x8xbf16>, %k: tensor<2x4xf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op k has element type 'f16' but q has 'bf16'}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c3: v has the element type of q.
func.func @attention_v_element_type(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op v has element type 'f32' but q has 'bf16'}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c3: the result has the element type of q.
func.func @attention_result_element_type(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'coda.attention' op result element type 'f32' differs from q's 'bf16'}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// attention_c3: the result has the columns of q.
func.func @attention_result_columns(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.attention' op result shape 2x16 differs from q's 2x8}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// attention_c3: the result has the rows of q.
func.func @attention_result_rows(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.attention' op result shape 4x8 differs from q's 2x8}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// attention_c3: with dynamic rows the shapes print `?`.
func.func @attention_result_columns_dynamic(%q: tensor<?x8xbf16>, %k: tensor<?x4xbf16>, %v: tensor<?x4xbf16>) -> tensor<?x16xbf16> {
  // expected-error @+1 {{'coda.attention' op result shape ?x16 differs from q's ?x8}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<?x8xbf16>, tensor<?x4xbf16>, tensor<?x4xbf16>) -> tensor<?x16xbf16>
  return %r : tensor<?x16xbf16>
}

// -----

// attention_c4: a static row count is a multiple of seq_len.
func.func @attention_rows_not_multiple(%q: tensor<3x8xbf16>, %k: tensor<3x4xbf16>, %v: tensor<3x4xbf16>) -> tensor<3x8xbf16> {
  // expected-error @+1 {{'coda.attention' op row count 3 is not a multiple of seq_len = 2}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = false} : (tensor<3x8xbf16>, tensor<3x4xbf16>, tensor<3x4xbf16>) -> tensor<3x8xbf16>
  return %r : tensor<3x8xbf16>
}

// -----

// attention_c4: fewer rows than seq_len are not a whole sequence.
func.func @attention_rows_below_seq_len(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op row count 2 is not a multiple of seq_len = 4}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 4 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// attention_c2: with a dynamic q, k and v must agree on static rows.
func.func @attention_rows_behind_dynamic(%q: tensor<?x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<4x4xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.attention' op v has 4 rows but k has 2}}
  %o = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<?x8xbf16>, tensor<2x4xbf16>, tensor<4x4xbf16>) -> tensor<?x8xbf16>
  return %o : tensor<?x8xbf16>
}

// -----

// attention_c4: the static rows of k and v count too when q is dynamic.
func.func @attention_seq_len_behind_dynamic(%q: tensor<?x8xbf16>, %k: tensor<3x4xbf16>, %v: tensor<3x4xbf16>) -> tensor<3x8xbf16> {
  // expected-error @+1 {{'coda.attention' op row count 3 is not a multiple of seq_len = 2}}
  %o = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<?x8xbf16>, tensor<3x4xbf16>, tensor<3x4xbf16>) -> tensor<3x8xbf16>
  return %o : tensor<3x8xbf16>
}

// -----

// attention_c2: head counts whose widths overflow are rejected, not wrapped.
func.func @attention_width_overflow(%q: tensor<2x8xbf16>, %k: tensor<2x8xbf16>, %v: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op num_heads = 4611686018427387906, num_kv_heads = 2 and head_dim = 4 give widths that overflow 64 bits}}
  %o = coda.attention %q, %k, %v {num_heads = 4611686018427387906 : i64, num_kv_heads = 2 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %o : tensor<2x8xbf16>
}
