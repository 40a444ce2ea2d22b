// RUN: coda-opt %s --split-input-file --verify-diagnostics

// transposed_matmul_c1: a and b have the same rows.
func.func @transposed_rows(%a: tensor<4x8xf32>, %b: tensor<6x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'coda.transposed_matmul' op b has 6 rows but a has 4}}
  %r = coda.transposed_matmul %a, %b : (tensor<4x8xf32>, tensor<6x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// transposed_matmul_c2: the result is [N, K].
func.func @transposed_shape(%a: tensor<?x8xf32>, %b: tensor<?x16xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'coda.transposed_matmul' op expected result shape 8x16, got 'tensor<16x8xf32>'}}
  %r = coda.transposed_matmul %a, %b : (tensor<?x8xf32>, tensor<?x16xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// sum_rows_c1: one element per column.
func.func @sum_rows_size(%x: tensor<?x8xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coda.sum_rows' op expected a result of 8 elements, one per column of x, got 16}}
  %r = coda.sum_rows %x : (tensor<?x8xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// rms_norm_grad_c1: gamma has one element per feature.
func.func @rms_grad_gamma(%x: tensor<?x8xf32>, %g: tensor<4xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op gamma has 4 elements but the rows have 8 features}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<4xf32>, tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<4xf32>)
  return
}

// -----

// rms_norm_grad_c1: dy has the shape of x.
func.func @rms_grad_dy(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x16xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op dy has type 'tensor<?x16xf32>' but x has 'tensor<?x8xf32>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x16xf32>) -> (tensor<?x8xf32>, tensor<8xf32>)
  return
}

// -----

// rms_norm_grad_c4: the row statistic is one f32 per row.
func.func @rms_grad_row_dot(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>, %s: tensor<?x2xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op expected row_dot of type tensor<?x1xf32>, one per row, got 'tensor<?x2xf32>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>, tensor<?x2xf32>) -> (tensor<?x8xf32>, tensor<8xf32>)
  return
}

// -----

// rms_norm_grad_c4: as many statistics as rows.
func.func @rms_grad_row_dot_rows(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %dy: tensor<4x8xf32>, %s: tensor<5x1xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op expected row_dot of type tensor<4x1xf32>, one per row, got 'tensor<5x1xf32>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<5x1xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)
  return
}

// -----

// rms_norm_grad_c2: dgamma has gamma's type.
func.func @rms_grad_dgamma(%x: tensor<?x8xbf16>, %g: tensor<8xbf16>, %dy: tensor<?x8xbf16>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op the vector gradient has type 'tensor<8xf32>' but gamma has 'tensor<8xbf16>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xbf16>, tensor<8xbf16>, tensor<?x8xbf16>) -> (tensor<?x8xbf16>, tensor<8xf32>)
  return
}

// -----

// rms_norm_grad_c2: dx has x's type.
func.func @rms_grad_dx(%x: tensor<?x8xbf16>, %g: tensor<8xbf16>, %dy: tensor<?x8xbf16>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op dx has type 'tensor<?x8xf32>' but x has 'tensor<?x8xbf16>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xbf16>, tensor<8xbf16>, tensor<?x8xbf16>) -> (tensor<?x8xf32>, tensor<8xbf16>)
  return
}

// -----

// rms_norm_grad_c3: epsilon is not negative.
func.func @rms_grad_epsilon(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op epsilon must be finite and not negative}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy {epsilon = -1.0 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm_grad_c2: dbeta has gamma's type.
func.func @ln_grad_dbeta(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.layer_norm_grad' op the vector gradient has type 'tensor<4xf32>' but gamma has 'tensor<8xf32>'}}
  %a, %b, %c = coda.layer_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<8xf32>, tensor<4xf32>)
  return
}

// -----

// activation_grad_c1: dy has x's type.
func.func @activation_grad_dy(%x: tensor<?x8xf32>, %dy: tensor<?x8xbf16>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'coda.activation_grad' op dy has type 'tensor<?x8xbf16>' but x has 'tensor<?x8xf32>'}}
  %r = coda.activation_grad %x, %dy : (tensor<?x8xf32>, tensor<?x8xbf16>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// activation_grad: the activation is one the op knows.
func.func @activation_grad_kind(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{attribute 'activation' failed to satisfy constraint: string attribute one of "silu", "relu", "sigmoid", "tanh", "gelu", "gelu_tanh"}}
  %r = coda.activation_grad %x, %x {activation = "elu"} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// cross_entropy_grad_c1: one target per row.
func.func @ce_grad_targets(%l: tensor<4x8xf32>, %t: tensor<5xi64>, %d: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'coda.cross_entropy_grad' op targets has 5 rows but logits has 4}}
  %r = coda.cross_entropy_grad %l, %t, %d : (tensor<4x8xf32>, tensor<5xi64>, tensor<f32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// cross_entropy_grad_c1: "mean" takes a scalar cotangent.
func.func @ce_grad_mean(%l: tensor<?x8xf32>, %t: tensor<?xi64>, %d: tensor<?xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'coda.cross_entropy_grad' op reduction "mean" expects dloss of type tensor<f32>, got 'tensor<?xf32>'}}
  %r = coda.cross_entropy_grad %l, %t, %d : (tensor<?x8xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// cross_entropy_grad_c1: "none" takes one cotangent per row.
func.func @ce_grad_none(%l: tensor<4x8xf32>, %t: tensor<4xi64>, %d: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'coda.cross_entropy_grad' op reduction "none" expects dloss of type tensor<4xf32>, got 'tensor<f32>'}}
  %r = coda.cross_entropy_grad %l, %t, %d {reduction = "none"} : (tensor<4x8xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// cross_entropy_grad_c2: the result has the logits' type.
func.func @ce_grad_result(%l: tensor<?x8xf32>, %t: tensor<?xi64>, %d: tensor<f32>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.cross_entropy_grad' op the result has type 'tensor<?x8xbf16>' but logits has 'tensor<?x8xf32>'}}
  %r = coda.cross_entropy_grad %l, %t, %d : (tensor<?x8xf32>, tensor<?xi64>, tensor<f32>) -> tensor<?x8xbf16>
  return %r : tensor<?x8xbf16>
}

// -----

// rms_norm_grad_partials_c1: the residual has the type of x.
func.func @partials_residual(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>, %r: tensor<?x8xbf16>) {
  // expected-error @+1 {{'coda.rms_norm_grad_partials' op residual has type 'tensor<?x8xbf16>' but x has 'tensor<?x8xf32>'}}
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>, tensor<?x8xbf16>) -> (tensor<4x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// rms_norm_grad_partials_c2: a static number of partial rows.
func.func @partials_dynamic(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad_partials' op expected partials of a static, positive number of rows and 8 columns, got 'tensor<?x8xf32>'}}
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// rms_norm_grad_partials_c2: one partial column per feature.
func.func @partials_columns(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad_partials' op expected partials of a static, positive number of rows and 8 columns, got 'tensor<4x16xf32>'}}
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<4x16xf32>, tensor<?x8xf32>)
  return
}

// -----

// rms_norm_grad_partials_c3: epsilon is finite and not negative.
func.func @partials_epsilon(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad_partials' op epsilon must be finite and not negative, got -1}}
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy {epsilon = -1.0 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// layer_norm_grad_partials_c1: dy has the type of x.
func.func @ln_partials_dy(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x4xf32>) {
  // expected-error @+1 {{'coda.layer_norm_grad_partials' op dy has type 'tensor<?x4xf32>' but x has 'tensor<?x8xf32>'}}
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// layer_norm_grad_partials_c1: the residual has the type of x.
func.func @ln_partials_residual(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>, %r: tensor<?x8xbf16>) {
  // expected-error @+1 {{'coda.layer_norm_grad_partials' op residual has type 'tensor<?x8xbf16>' but x has 'tensor<?x8xf32>'}}
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>, tensor<?x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// layer_norm_grad_partials_c2: a static number of partial rows.
func.func @ln_partials_dynamic(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.layer_norm_grad_partials' op expected partials of a static, positive number of rows and 8 columns, got 'tensor<?x8xf32>'}}
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// layer_norm_grad_partials_c2: both partials of one type.
func.func @ln_partials_rows(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.layer_norm_grad_partials' op expected both partials of one type, got 'tensor<4x8xf32>' and 'tensor<2x8xf32>'}}
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<2x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// layer_norm_grad_partials_c3: epsilon is finite and not negative.
func.func @ln_partials_epsilon(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %dy: tensor<?x8xf32>) {
  // expected-error @+1 {{'coda.layer_norm_grad_partials' op epsilon must be finite and not negative, got -1}}
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy {epsilon = -1.0 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xf32>)
  return
}

// -----

// cross_entropy_grad_c1: the saved log-sum-exps are one per row.
func.func @ce_grad_lse(%l: tensor<4x8xf32>, %t: tensor<4xi64>, %dl: tensor<f32>, %s: tensor<4x8xf32>) {
  // expected-error @+1 {{'coda.cross_entropy_grad' op expected lse of type tensor<4x1xf32>, one per row, got 'tensor<4x8xf32>'}}
  %g = coda.cross_entropy_grad %l, %t, %dl, %s : (tensor<4x8xf32>, tensor<4xi64>, tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// cross_entropy_row_weights_c1: "sum" takes a scalar cotangent.
func.func @row_weights_sum_dloss(%t: tensor<4xi64>, %d: tensor<4xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'coda.cross_entropy_row_weights' op reduction "sum" expects dloss of type tensor<f32>, got 'tensor<4xf32>'}}
  %w = coda.cross_entropy_row_weights %t, %d {reduction = "sum"} : (tensor<4xi64>, tensor<4xf32>) -> tensor<4x1xf32>
  return %w : tensor<4x1xf32>
}

// -----

// cross_entropy_row_weights_c1: "none" takes one cotangent per row.
func.func @row_weights_none_dloss(%t: tensor<4xi64>, %d: tensor<5xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'coda.cross_entropy_row_weights' op reduction "none" expects dloss of type tensor<4xf32>, got 'tensor<5xf32>'}}
  %w = coda.cross_entropy_row_weights %t, %d {reduction = "none"} : (tensor<4xi64>, tensor<5xf32>) -> tensor<4x1xf32>
  return %w : tensor<4x1xf32>
}

// -----

// cross_entropy_row_weights_c2: one weight per target.
func.func @row_weights_result(%t: tensor<4xi64>, %d: tensor<f32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'coda.cross_entropy_row_weights' op expected the result of type tensor<4x1xf32>, one per row, got 'tensor<4x2xf32>'}}
  %w = coda.cross_entropy_row_weights %t, %d : (tensor<4xi64>, tensor<f32>) -> tensor<4x2xf32>
  return %w : tensor<4x2xf32>
}

// -----

// softmax_target_grad_c1: one log-sum-exp per row.
func.func @softmax_target_grad_lse(%l: tensor<4x8xf32>, %lse: tensor<4x2xf32>, %w: tensor<4x1xf32>, %t: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'coda.softmax_target_grad' op expected lse of type tensor<4x1xf32>, one per row, got 'tensor<4x2xf32>'}}
  %g = coda.softmax_target_grad %l, %lse, %w, %t : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x1xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// softmax_target_grad_c1: one weight per row.
func.func @softmax_target_grad_weights(%l: tensor<4x8xf32>, %lse: tensor<4x1xf32>, %w: tensor<3x1xf32>, %t: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'coda.softmax_target_grad' op expected weights of type tensor<4x1xf32>, one per row, got 'tensor<3x1xf32>'}}
  %g = coda.softmax_target_grad %l, %lse, %w, %t : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<3x1xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// softmax_target_grad_c1: one target per row.
func.func @softmax_target_grad_targets(%l: tensor<4x8xf32>, %lse: tensor<4x1xf32>, %w: tensor<4x1xf32>, %t: tensor<5xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'coda.softmax_target_grad' op targets has 5 rows but logits has 4}}
  %g = coda.softmax_target_grad %l, %lse, %w, %t : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<5xi64>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// softmax_target_grad_c2: the result has the logits' shape.
func.func @softmax_target_grad_shape(%l: tensor<4x8xf32>, %lse: tensor<4x1xf32>, %w: tensor<4x1xf32>, %t: tensor<4xi64>) -> tensor<4x6xbf16> {
  // expected-error @+1 {{'coda.softmax_target_grad' op result shape 4x6 differs from the logits' 4x8}}
  %g = coda.softmax_target_grad %l, %lse, %w, %t : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xi64>) -> tensor<4x6xbf16>
  return %g : tensor<4x6xbf16>
}

// -----

// rms_norm_grad_c4: the forward's scale is one per row.
func.func @rms_norm_grad_rstd(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %dy: tensor<4x8xf32>, %r: tensor<4x2xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  // expected-error @+1 {{'coda.rms_norm_grad' op expected rstd of type tensor<4x1xf32>, one per row, got 'tensor<4x2xf32>'}}
  %a, %b = coda.rms_norm_grad %x, %g, %dy rstd %r {epsilon = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)
  return %a, %b : tensor<4x8xf32>, tensor<8xf32>
}
