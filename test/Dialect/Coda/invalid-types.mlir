// RUN: coda-opt %s --split-input-file --verify-diagnostics

// ODS Coda_Matrix: x of coda.linear is a rank-2 tensor, not rank 3.
func.func @types_rank3_operand(%x: tensor<2x8x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8x8xbf16>'}}
  %r = coda.linear %x, %w : (tensor<2x8x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix: x of coda.silu is a rank-2 tensor, not rank 1.
func.func @types_rank1_matrix(%x: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.silu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<8xbf16>'}}
  %r = coda.silu %x : (tensor<8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix: the result is a rank-2 tensor, not rank 3.
func.func @types_rank3_result(%x: tensor<2x8xbf16>) -> tensor<2x8x1xbf16> {
  // expected-error @+1 {{'coda.relu' op result #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8x1xbf16>'}}
  %r = coda.relu %x : (tensor<2x8xbf16>) -> tensor<2x8x1xbf16>
  return %r : tensor<2x8x1xbf16>
}

// -----

// ODS Coda_Vector: gamma of coda.rms_norm is a rank-1 tensor.
func.func @types_rank2_vector(%x: tensor<2x8xbf16>, %g: tensor<1x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rms_norm' op operand #1 must be 1D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<1x8xbf16>'}}
  %r = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<1x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_MatrixOrVector: b of coda.add is rank 1 or 2, not rank 0.
func.func @types_rank0_broadcast(%a: tensor<2x8xbf16>, %b: tensor<bf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op operand #1 must be 1D/2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<bf16>'}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<bf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_MatrixOrVector: b of coda.mul is rank 1 or 2, not rank 3.
func.func @types_rank3_broadcast(%a: tensor<2x8xbf16>, %b: tensor<1x2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.mul' op operand #1 must be 1D/2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<1x2x8xbf16>'}}
  %r = coda.mul %a, %b : (tensor<2x8xbf16>, tensor<1x2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix (variadic): every input of coda.concat is a rank-2 tensor.
func.func @types_concat_rank1(%x0: tensor<2x8xbf16>, %x1: tensor<8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op operand #1 must be variadic of 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<8xbf16>'}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// ODS Coda_Loss: the cross_entropy loss is rank 0 or 1.
func.func @types_loss_rank2(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op result #0 must be 0D/1D tensor of 32-bit float values, but got 'tensor<2x1xf32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "none"} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----

// ODS Coda_Float: i32 is not a float element type.
func.func @types_i32_operand(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  // expected-error @+1 {{'coda.silu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xi32>'}}
  %r = coda.silu %x : (tensor<2x8xi32>) -> tensor<2x8xi32>
  return %r : tensor<2x8xi32>
}

// -----

// ODS Coda_Float: i32 weights of coda.linear are rejected.
func.func @types_i32_weight(%x: tensor<2x8xbf16>, %w: tensor<8x8xi32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #1 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<8x8xi32>'}}
  %r = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<8x8xi32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Float: f64 is not among bf16, f16, f32.
func.func @types_f64_operand(%x: tensor<2x8xf64>) -> tensor<2x8xf64> {
  // expected-error @+1 {{'coda.relu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xf64>'}}
  %r = coda.relu %x : (tensor<2x8xf64>) -> tensor<2x8xf64>
  return %r : tensor<2x8xf64>
}

// -----

// ODS Coda_Float: an f64 result is rejected.
func.func @types_f64_result(%a: tensor<2x8xbf16>, %b: tensor<8x8xbf16>) -> tensor<2x8xf64> {
  // expected-error @+1 {{'coda.matmul' op result #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xf64>'}}
  %r = coda.matmul %a, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xf64>
  return %r : tensor<2x8xf64>
}

// -----

// ODS Coda_Float: f8 types are not among bf16, f16, f32.
func.func @types_f8_operand(%x: tensor<2x8xf8E4M3FN>) -> tensor<2x8xf8E4M3FN> {
  // expected-error @+1 {{'coda.tanh' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xf8E4M3FN>'}}
  %r = coda.tanh %x : (tensor<2x8xf8E4M3FN>) -> tensor<2x8xf8E4M3FN>
  return %r : tensor<2x8xf8E4M3FN>
}

// -----

// ODS Coda_Vector: an i32 bias is rejected.
func.func @types_i32_bias(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<8xi32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #2 must be 1D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<8xi32>'}}
  %r = coda.linear %x, %w, %b : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8xi32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Float: a complex element type is rejected.
func.func @types_complex_operand(%x: tensor<2x8xcomplex<f32>>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.sigmoid' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xcomplex<f32>>'}}
  %r = coda.sigmoid %x : (tensor<2x8xcomplex<f32>>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix: an unranked tensor operand is rejected.
func.func @types_unranked_operand(%x: tensor<*xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.silu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<*xbf16>'}}
  %r = coda.silu %x : (tensor<*xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix: an unranked tensor result is rejected.
func.func @types_unranked_result(%x: tensor<2x8xbf16>) -> tensor<*xbf16> {
  // expected-error @+1 {{'coda.silu' op result #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<*xbf16>'}}
  %r = coda.silu %x : (tensor<2x8xbf16>) -> tensor<*xbf16>
  return %r : tensor<*xbf16>
}

// -----

// ODS Coda_Matrix: a memref is not a tensor.
func.func @types_memref_operand(%x: memref<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.scale' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'memref<2x8xbf16>'}}
  %r = coda.scale %x {factor = 2.0 : f32} : (memref<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS Coda_Matrix: a vector is not a tensor.
func.func @types_vector_operand(%x: vector<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gelu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'vector<2x8xbf16>'}}
  %r = coda.gelu %x : (vector<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: only the row count of an operand may be dynamic.
func.func @types_dynamic_feature_operand(%x: tensor<4x?xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'coda.silu' op operand #0 has type 'tensor<4x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.silu %x : (tensor<4x?xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// StaticFeatureSizes: the trait names the operand index (the weight, #1).
func.func @types_dynamic_feature_weight(%x: tensor<2x8xbf16>, %w: tensor<8x?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #1 has type 'tensor<8x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<8x?xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: an all-dynamic operand fails on dimension 1.
func.func @types_dynamic_feature_all(%a: tensor<2x8xbf16>, %b: tensor<?x?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.add' op operand #1 has type 'tensor<?x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.add %a, %b : (tensor<2x8xbf16>, tensor<?x?xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: only the row count of the result may be dynamic.
func.func @types_dynamic_feature_result(%x: tensor<2x8xbf16>) -> tensor<2x?xbf16> {
  // expected-error @+1 {{'coda.relu' op result #0 has type 'tensor<2x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.relu %x : (tensor<2x8xbf16>) -> tensor<2x?xbf16>
  return %r : tensor<2x?xbf16>
}

// -----

// StaticFeatureSizes: the RoPE tables have static widths.
func.func @types_dynamic_feature_rope_table(%x: tensor<2x8xbf16>, %cos: tensor<2x?xf32>, %sin: tensor<2x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rope' op operand #1 has type 'tensor<2x?xf32>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.rope %x, %cos, %sin {head_dim = 4 : i64} : (tensor<2x8xbf16>, tensor<2x?xf32>, tensor<2x2xf32>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: every concat input has a static width.
func.func @types_dynamic_feature_concat(%x0: tensor<2x8xbf16>, %x1: tensor<2x?xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.concat' op operand #1 has type 'tensor<2x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic}}
  %r = coda.concat %x0, %x1 : (tensor<2x8xbf16>, tensor<2x?xbf16>) -> tensor<2x16xbf16>
  return %r : tensor<2x16xbf16>
}

// -----

// ODS operand count: coda.swiglu takes two operands.
func.func @types_swiglu_one_operand(%g: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.swiglu' op expected 2 operands, but found 1}}
  %r = coda.swiglu %g : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS operand count: coda.rms_norm takes two operands.
func.func @types_rms_norm_three_operands(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>, %h: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rms_norm' op expected 2 operands, but found 3}}
  %r = coda.rms_norm %x, %g, %h {epsilon = 1.0e-05 : f32} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS operand count: coda.linear takes x, w and at most one bias.
func.func @types_linear_four_operands(%x: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<8xbf16>, %c: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand group starting at #2 requires 0 or 1 element, but found 2}}
  %r = coda.linear %x, %w, %b, %c : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS operand count: coda.linear needs at least x and w.
func.func @types_linear_one_operand(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op expected 2 or more operands, but found 1}}
  %r = coda.linear %x : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS operand count: coda.attention takes q, k and v.
func.func @types_attention_two_operands(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op expected 3 operands, but found 2}}
  %r = coda.attention %q, %k {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64, causal = true} : (tensor<2x8xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS result count: every coda op has exactly one result, not two.
func.func @types_two_results(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.silu' op requires one result}}
  %r:2 = coda.silu %x : (tensor<2x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>)
  return %r#0 : tensor<2x8xbf16>
}

// -----

// ODS result count: every coda op has exactly one result, not none.
func.func @types_no_result(%x: tensor<2x8xbf16>) {
  // expected-error @+1 {{'coda.relu' op requires one result}}
  coda.relu %x : (tensor<2x8xbf16>) -> ()
  return
}

// -----

// ODS required attribute: coda.rms_norm needs epsilon.
func.func @types_missing_epsilon(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.rms_norm' op requires attribute 'epsilon'}}
  %r = coda.rms_norm %x, %g : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS required attribute: coda.attention needs causal.
func.func @types_missing_causal(%q: tensor<2x8xbf16>, %k: tensor<2x4xbf16>, %v: tensor<2x4xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.attention' op requires attribute 'causal'}}
  %r = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 1 : i64, head_dim = 4 : i64, seq_len = 2 : i64} : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS F32Attr: epsilon is an f32 attribute, not f64.
func.func @types_epsilon_f64(%x: tensor<2x8xbf16>, %g: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.rms_norm' 'coda.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %r = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f64} : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS F32Attr: factor is an f32 attribute, not an integer.
func.func @types_factor_integer(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.scale' 'coda.scale' op attribute 'factor' failed to satisfy constraint: 32-bit float attribute}}
  %r = coda.scale %x {factor = 2 : i32} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// ODS I64Attr: offset is an i64 attribute, not i32.
func.func @types_offset_i32(%x: tensor<2x8xbf16>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{custom op 'coda.slice' 'coda.slice' op attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute}}
  %r = coda.slice %x {offset = 0 : i32, size = 4 : i64} : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// ODS Coda_StrEnumAttr: approximate is a string, not an integer.
func.func @types_approximate_integer(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.gelu' 'coda.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute one of "none", "tanh"}}
  %r = coda.gelu %x {approximate = 1 : i64} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %r : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: a zero-width feature dimension is rejected.
func.func @zero_width(%x: tensor<2x0xbf16>, %w: tensor<8x0xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #0 has type 'tensor<2x0xbf16>' with size 0 in dimension 1; feature sizes must be in [1, 2147483648]}}
  %y = coda.linear %x, %w : (tensor<2x0xbf16>, tensor<8x0xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: sizes past 2^31 are rejected before any size arithmetic.
func.func @huge_width(%a: tensor<2x9223372036854775807xbf16>, %b: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.concat' op operand #0 has type 'tensor<2x9223372036854775807xbf16>' with size 9223372036854775807 in dimension 1; feature sizes must be in [1, 2147483648]}}
  %y = coda.concat %a, %b : (tensor<2x9223372036854775807xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// StaticFeatureSizes: a weight's first dimension is bounded too.
func.func @huge_weight(%x: tensor<2x8xbf16>, %w: tensor<4294967296x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.linear' op operand #1 has type 'tensor<4294967296x8xbf16>' with size 4294967296 in dimension 0; sizes must be at most 2147483648}}
  %y = coda.linear %x, %w : (tensor<2x8xbf16>, tensor<4294967296x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}
