// RUN: coda-opt %s --split-input-file --verify-diagnostics

// cross_entropy_c1: targets has one element per row of logits.
func.func @cross_entropy_target_rows(%logits: tensor<2x8xbf16>, %t: tensor<4xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op targets has 4 rows but logits has 2}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<4xi64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy_c2: reduction "none" returns one loss per row, not a scalar.
func.func @cross_entropy_none_scalar(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "none" expects a result of type tensor<2xf32>, got 'tensor<f32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "none"} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy_c2: reduction "none" returns M losses.
func.func @cross_entropy_none_rows(%logits: tensor<2x8xbf16>, %t: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "none" expects a result of type tensor<2xf32>, got 'tensor<4xf32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "none"} : (tensor<2x8xbf16>, tensor<2xi32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// cross_entropy_c2: with dynamic rows the expected type prints `?`.
func.func @cross_entropy_none_dynamic(%logits: tensor<?x8xbf16>, %t: tensor<?xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "none" expects a result of type tensor<?xf32>, got 'tensor<f32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "none"} : (tensor<?x8xbf16>, tensor<?xi64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy_c2: reduction "mean" returns a scalar.
func.func @cross_entropy_mean_vector(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "mean" expects a result of type tensor<f32>, got 'tensor<2xf32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "mean"} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// cross_entropy_c2: reduction "sum" returns a scalar.
func.func @cross_entropy_sum_vector(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "sum" expects a result of type tensor<f32>, got 'tensor<2xf32>'}}
  %r = coda.cross_entropy %logits, %t {reduction = "sum"} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// cross_entropy_c2: the default reduction is "mean".
func.func @cross_entropy_default_vector(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op reduction "mean" expects a result of type tensor<f32>, got 'tensor<?xf32>'}}
  %r = coda.cross_entropy %logits, %t {ignore_index = 0 : i64} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// cross_entropy reduction (ODS Coda_StrEnumAttr): reduction is "mean", "sum" or "none".
func.func @cross_entropy_bad_reduction(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<f32> {
  // expected-error @+1 {{custom op 'coda.cross_entropy' 'coda.cross_entropy' op attribute 'reduction' failed to satisfy constraint: string attribute one of "mean", "sum", "none"}}
  %r = coda.cross_entropy %logits, %t {reduction = "avg"} : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy targets (ODS Coda_Targets): class indices are i32 or i64, not f32.
func.func @cross_entropy_targets_f32(%logits: tensor<2x8xbf16>, %t: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op operand #1 must be 1D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<2xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy targets (ODS Coda_Targets): class indices are i32 or i64, not i8.
func.func @cross_entropy_targets_i8(%logits: tensor<2x8xbf16>, %t: tensor<2xi8>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op operand #1 must be 1D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xi8>'}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<2xi8>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy targets (ODS Coda_Targets): class indices are signless, not ui32.
func.func @cross_entropy_targets_ui32(%logits: tensor<2x8xbf16>, %t: tensor<2xui32>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op operand #1 must be 1D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xui32>'}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<2xui32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy targets (ODS Coda_Targets): targets is a vector.
func.func @cross_entropy_targets_rank2(%logits: tensor<2x8xbf16>, %t: tensor<2x1xi64>) -> tensor<f32> {
  // expected-error @+1 {{'coda.cross_entropy' op operand #1 must be 1D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2x1xi64>'}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<2x1xi64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// cross_entropy result (ODS Coda_Loss): the loss is f32.
func.func @cross_entropy_result_bf16(%logits: tensor<2x8xbf16>, %t: tensor<2xi64>) -> tensor<bf16> {
  // expected-error @+1 {{'coda.cross_entropy' op result #0 must be 0D/1D tensor of 32-bit float values, but got 'tensor<bf16>'}}
  %r = coda.cross_entropy %logits, %t : (tensor<2x8xbf16>, tensor<2xi64>) -> tensor<bf16>
  return %r : tensor<bf16>
}

// -----

// cross_entropy_c1: with dynamic logits, targets and per-row losses must agree on static rows.
func.func @ce_rows_behind_dynamic(%l: tensor<?x8xbf16>, %t: tensor<2xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'coda.cross_entropy' op the result has 4 rows but targets has 2}}
  %y = coda.cross_entropy %l, %t {reduction = "none"} : (tensor<?x8xbf16>, tensor<2xi64>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// log_sum_exp_c1: one f32 value per row, as a column.
func.func @lse_shape(%l: tensor<?x8xbf16>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'coda.log_sum_exp' op expected a result of type tensor<?x1xf32>, got 'tensor<?x8xf32>'}}
  %s = coda.log_sum_exp %l : (tensor<?x8xbf16>) -> tensor<?x8xf32>
  return %s : tensor<?x8xf32>
}

// -----

// log_sum_exp_c1: rows as x.
func.func @lse_rows(%l: tensor<4x8xbf16>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'coda.log_sum_exp' op expected a result of type tensor<4x1xf32>, got 'tensor<3x1xf32>'}}
  %s = coda.log_sum_exp %l : (tensor<4x8xbf16>) -> tensor<3x1xf32>
  return %s : tensor<3x1xf32>
}
