// RUN: coda-opt %s --split-input-file --coda-generate-backward | FileCheck %s

// A linear with a bias: the forward saves nothing (x and w are arguments);
// dx = dy · w, dw = dyᵀ x, dbias = the column sums of dy.
// CHECK-LABEL: func.func @linear(
// CHECK-LABEL: func.func @linear_forward(
//  CHECK-SAME:     -> tensor<?x32xbf16> attributes {coda.saved = 0 : i64}
// CHECK-LABEL: func.func @linear_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x64xbf16>, %[[W:[^:]+]]: tensor<32x64xbf16>, %[[B:[^:]+]]: tensor<32xbf16>, %[[DY:[^:]+]]: tensor<?x32xbf16>)
//  CHECK-SAME:     -> (tensor<?x64xbf16> {coda.gradient_of = 0 : i64}, tensor<32x64xbf16> {coda.gradient_of = 1 : i64}, tensor<32xbf16> {coda.gradient_of = 2 : i64})
//  CHECK-SAME:     attributes {coda.saved = 0 : i64}
//       CHECK:   %[[DX:.+]] = coda.matmul %[[DY]], %[[W]] : (tensor<?x32xbf16>, tensor<32x64xbf16>) -> tensor<?x64xbf16>
//       CHECK:   %[[DW:.+]] = coda.transposed_matmul %[[DY]], %[[X]] : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xbf16>
//       CHECK:   %[[DB:.+]] = coda.sum_rows %[[DY]] : (tensor<?x32xbf16>) -> tensor<32xbf16>
//       CHECK:   return %[[DX]], %[[DW]], %[[DB]]
func.func @linear(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// A residual, an RMSNorm and a linear: the forward saves the residual sum,
// and the linear's result, which it returns, a second time: by the z·dz
// identity the norm's row statistic Σ h · dh is Σ y · dy. The backward
// recomputes the norm's output for the weight gradient, and the residual's
// cotangent is the norm's dx plus nothing else (x1 is not a result).
// CHECK-LABEL: func.func @residual_norm_forward(
//       CHECK:   %[[X1:.+]] = coda.add
//       CHECK:   %[[Y:.+]] = coda.linear
//       CHECK:   return %[[Y]], %[[X1]], %[[Y]] : tensor<?x32xbf16>, tensor<?x64xbf16>, tensor<?x32xbf16>
// CHECK-LABEL: func.func @residual_norm_backward(
//  CHECK-SAME:     %[[X0:[^:]+]]: tensor<?x64xbf16>, %[[O:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<32x64xbf16>, %[[S:[^:]+]]: tensor<?x64xbf16>, %[[SY:[^:]+]]: tensor<?x32xbf16>, %[[DY:[^:]+]]: tensor<?x32xbf16>)
//       CHECK:   %[[H:.+]] = coda.rms_norm %[[S]], %[[G]]
//       CHECK:   %[[DH:.+]] = coda.matmul %[[DY]], %[[W]]
//       CHECK:   %[[DW:.+]] = coda.transposed_matmul %[[DY]], %[[H]]
//       CHECK:   %[[YDY:.+]] = coda.mul %[[SY]], %[[DY]]
//       CHECK:   %[[P:.+]] = coda.partial_reduce %[[YDY]]
//       CHECK:   %[[DOT:.+]] = coda.reduce_partials %[[P]]
//       CHECK:   %[[DX:.+]], %[[DG:.+]] = coda.rms_norm_grad %[[S]], %[[G]], %[[DH]] row_dot %[[DOT]] {epsilon = 9.99999974E-6 : f32}
//       CHECK:   return %[[DX]], %[[DX]], %[[DG]], %[[DW]]
func.func @residual_norm(%x0: tensor<?x64xbf16>, %o: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %x1 = coda.add %x0, %o : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %h = coda.rms_norm %x1, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// Slices, RoPE and a concat: RoPE's backward rotates by −θ, the slices'
// cotangents are put side by side again, and the tables get no gradient.
// CHECK-LABEL: func.func @qkv_backward(
//  CHECK-SAME:     %[[QKV:[^:]+]]: tensor<?x64xf32>, %[[COS:[^:]+]]: tensor<?x4xf32>, %[[SIN:[^:]+]]: tensor<?x4xf32>, %[[DY:[^:]+]]: tensor<?x64xf32>)
//  CHECK-SAME:     -> (tensor<?x64xf32> {coda.gradient_of = 0 : i64})
//       CHECK:   %[[DQ:.+]] = coda.slice %[[DY]] {offset = 0 : i64, size = 32 : i64}
//       CHECK:   %[[DV:.+]] = coda.slice %[[DY]] {offset = 32 : i64, size = 32 : i64}
//       CHECK:   %[[NEG:.+]] = coda.scale %[[SIN]] {factor = -1.000000e+00 : f32}
//       CHECK:   %[[BACK:.+]] = coda.rope %[[DQ]], %[[COS]], %[[NEG]] {head_dim = 8 : i64, style = "interleaved"}
//       CHECK:   %[[JOIN:.+]] = coda.concat %[[BACK]], %[[DV]]
//       CHECK:   return %[[JOIN]]
func.func @qkv(%qkv: tensor<?x64xf32>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>) -> tensor<?x64xf32> {
  %q = coda.slice %qkv {offset = 0 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
  %v = coda.slice %qkv {offset = 32 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
  %r = coda.rope %q, %cos, %sin {head_dim = 8 : i64, style = "interleaved"} : (tensor<?x32xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x32xf32>
  %y = coda.concat %r, %v : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// -----

// A vector operand broadcast over rows sums its cotangent over the rows; a
// value used twice gets the sum of both contributions; activations take
// their derivative at the saved or recomputed input.
// CHECK-LABEL: func.func @scale_gelu_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x16xf32>, %[[G:[^:]+]]: tensor<16xf32>, %[[DY:[^:]+]]: tensor<?x16xf32>)
//       CHECK:   %[[M:.+]] = coda.mul %[[X]], %[[G]]
//       CHECK:   %[[DM:.+]] = coda.activation_grad %[[M]], %[[DY]] {activation = "gelu"}
//       CHECK:   %[[DX:.+]] = coda.mul %[[DM]], %[[G]]
//       CHECK:   %[[SUM:.+]] = coda.add %[[DY]], %[[DX]]
//       CHECK:   %[[P:.+]] = coda.mul %[[DM]], %[[X]]
//       CHECK:   %[[DG:.+]] = coda.sum_rows %[[P]] : (tensor<?x16xf32>) -> tensor<16xf32>
//       CHECK:   return %[[SUM]], %[[DG]]
func.func @scale_gelu(%x: tensor<?x16xf32>, %g: tensor<16xf32>) -> tensor<?x16xf32> {
  %m = coda.mul %x, %g : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %a = coda.gelu %m : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %y = coda.add %a, %x : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// The loss over a linear's logits: the forward saves the rows' log-sum-exps,
// not the logits; the backward first takes the rows' weights from the
// loss's cotangent (and the targets), then recomputes the logits and their
// tile-local gradient w · (exp(logits - lse) - onehot(target)).
// CHECK-LABEL: func.func @loss_forward(
//  CHECK-SAME:     attributes {coda.saved = 1 : i64}
//       CHECK:   %[[LOGITS:.+]] = coda.linear
//       CHECK:   %[[LSE:.+]] = coda.log_sum_exp %[[LOGITS]] : (tensor<?x32xbf16>) -> tensor<?x1xf32>
//       CHECK:   return %{{.+}}, %[[LSE]] : tensor<f32>, tensor<?x1xf32>
// CHECK-LABEL: func.func @loss_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x16xbf16>, %[[W:[^:]+]]: tensor<32x16xbf16>, %[[T:[^:]+]]: tensor<?xi64>, %[[S:[^:]+]]: tensor<?x1xf32>, %[[DL:[^:]+]]: tensor<f32>)
//  CHECK-SAME:     -> (tensor<?x16xbf16> {coda.gradient_of = 0 : i64}, tensor<32x16xbf16> {coda.gradient_of = 1 : i64})
//       CHECK:   %[[WT:.+]] = coda.cross_entropy_row_weights %[[T]], %[[DL]] {ignore_index = -1 : i64, reduction = "sum"} : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
//       CHECK:   %[[L:.+]] = coda.linear %[[X]], %[[W]]
//       CHECK:   %[[DLOG:.+]] = coda.softmax_target_grad %[[L]], %[[S]], %[[WT]], %[[T]] : (tensor<?x32xbf16>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x32xbf16>
//       CHECK:   coda.matmul %[[DLOG]], %[[W]]
//       CHECK:   coda.transposed_matmul %[[DLOG]], %[[X]]
func.func @loss(%x: tensor<?x16xbf16>, %w: tensor<32x16xbf16>, %t: tensor<?xi64>) -> tensor<f32> {
  %logits = coda.linear %x, %w : (tensor<?x16xbf16>, tensor<32x16xbf16>) -> tensor<?x32xbf16>
  %l = coda.cross_entropy %logits, %t {ignore_index = -1 : i64, reduction = "sum"} : (tensor<?x32xbf16>, tensor<?xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Logits that are also a result are saved, and the loss's gradient takes
// its softmax from them.
// CHECK-LABEL: func.func @loss_and_logits_forward(
//  CHECK-SAME:     attributes {coda.saved = 1 : i64}
//   CHECK-NOT:   coda.log_sum_exp
//       CHECK:   return %{{.+}}, %{{.+}}, %{{.+}} : tensor<f32>, tensor<?x32xbf16>, tensor<?x32xbf16>
// CHECK-LABEL: func.func @loss_and_logits_backward(
//       CHECK:   coda.cross_entropy_grad %{{.+}}, %{{.+}}, %{{[^,]+}} {ignore_index = -1 : i64, reduction = "sum"}
func.func @loss_and_logits(%x: tensor<?x16xbf16>, %w: tensor<32x16xbf16>, %t: tensor<?xi64>) -> (tensor<f32>, tensor<?x32xbf16>) {
  %logits = coda.linear %x, %w : (tensor<?x16xbf16>, tensor<32x16xbf16>) -> tensor<?x32xbf16>
  %l = coda.cross_entropy %logits, %t {ignore_index = -1 : i64, reduction = "sum"} : (tensor<?x32xbf16>, tensor<?xi64>) -> tensor<f32>
  return %l, %logits : tensor<f32>, tensor<?x32xbf16>
}

// -----

// SwiGLU's gradient is elementwise: dup = swiglu(gate, dy) and
// dgate = silu'(gate) · (dy · up), the gate and up saved (linear outputs).
// CHECK-LABEL: func.func @swiglu_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x16xbf16>, %[[WG:[^:]+]]: tensor<32x16xbf16>, %[[WU:[^:]+]]: tensor<32x16xbf16>, %[[G:[^:]+]]: tensor<?x32xbf16>, %[[U:[^:]+]]: tensor<?x32xbf16>, %[[DY:[^:]+]]: tensor<?x32xbf16>)
//       CHECK:   %[[GATED:.+]] = coda.mul %[[DY]], %[[U]]
//       CHECK:   %[[DG:.+]] = coda.activation_grad %[[G]], %[[GATED]] :
//       CHECK:   %[[DU:.+]] = coda.swiglu %[[G]], %[[DY]]
//       CHECK:   coda.matmul %[[DU]], %[[WU]]
//       CHECK:   coda.matmul %[[DG]], %[[WG]]
func.func @swiglu(%x: tensor<?x16xbf16>, %wg: tensor<32x16xbf16>, %wu: tensor<32x16xbf16>) -> tensor<?x32xbf16> {
  %g = coda.linear %x, %wg : (tensor<?x16xbf16>, tensor<32x16xbf16>) -> tensor<?x32xbf16>
  %u = coda.linear %x, %wu : (tensor<?x16xbf16>, tensor<32x16xbf16>) -> tensor<?x32xbf16>
  %y = coda.swiglu %g, %u : (tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// The z·dz identity: the norm's output feeds a linear whose cotangent a
// product makes (through the activation's gradient), so the norm's row
// statistic Σ h · dh is Σ z · dz, summed where dz is made.
// CHECK-LABEL: func.func @norm_before_mlp_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W1:[^:]+]]: tensor<128x64xbf16>, %[[W2:[^:]+]]: tensor<64x128xbf16>, %[[Z:[^:]+]]: tensor<?x128xbf16>, %[[DY:[^:]+]]: tensor<?x64xbf16>)
//       CHECK:   %[[DA:.+]] = coda.matmul %[[DY]], %[[W2]]
//       CHECK:   %[[DZ:.+]] = coda.activation_grad %[[Z]], %[[DA]]
//       CHECK:   %[[DH:.+]] = coda.matmul %[[DZ]], %[[W1]]
//       CHECK:   %[[ZDZ:.+]] = coda.mul %[[Z]], %[[DZ]] : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
//       CHECK:   %[[P:.+]] = coda.partial_reduce %[[ZDZ]] : (tensor<?x128xbf16>) -> tensor<?x?xf32>
//       CHECK:   %[[S:.+]] = coda.reduce_partials %[[P]] : (tensor<?x?xf32>) -> tensor<?x1xf32>
//       CHECK:   coda.rms_norm_grad %[[X]], %[[G]], %[[DH]] row_dot %[[S]] {epsilon = 9.99999974E-6 : f32}
func.func @norm_before_mlp(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w1: tensor<128x64xbf16>, %w2: tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w1 : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %a = coda.silu %z : (tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %y = coda.linear %a, %w2 : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// With a bias, z · dz = h · dh + bias · dz: the gradient sums over dh itself.
// CHECK-LABEL: func.func @norm_before_biased_linear_backward(
//   CHECK-NOT:   coda.partial_reduce
//       CHECK:   coda.rms_norm_grad %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}} {epsilon
func.func @norm_before_biased_linear(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w1: tensor<128x64xbf16>, %b1: tensor<128xbf16>, %w2: tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w1, %b1 : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<128xbf16>) -> tensor<?x128xbf16>
  %a = coda.silu %z : (tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %y = coda.linear %a, %w2 : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// The z·dz identity through RoPE: the QKV projection's cotangent is the
// inverse rotation of the result's, which no product makes, but slices, RoPE
// (orthogonal) and the concat map z to the result linearly, so per row
// Σ z · dz = Σ r · dr over the rotated result r, which the forward saves.
// CHECK-LABEL: func.func @norm_before_rope_forward(
//       CHECK:   %[[R:.+]] = coda.concat
//       CHECK:   return %[[R]], %[[R]] : tensor<?x96xbf16>, tensor<?x96xbf16>
// CHECK-LABEL: func.func @norm_before_rope_backward(
//  CHECK-SAME:     %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<96x64xbf16>, %{{[^:]+}}: tensor<?x8xf32>, %{{[^:]+}}: tensor<?x8xf32>, %[[SR:[^:]+]]: tensor<?x96xbf16>, %[[DR:[^:]+]]: tensor<?x96xbf16>)
//       CHECK:   %[[DZ:.+]] = coda.concat
//       CHECK:   %[[DH:.+]] = coda.matmul %[[DZ]], %[[W]]
//       CHECK:   %[[RDR:.+]] = coda.mul %[[SR]], %[[DR]] : (tensor<?x96xbf16>, tensor<?x96xbf16>) -> tensor<?x96xbf16>
//       CHECK:   %[[P:.+]] = coda.partial_reduce %[[RDR]]
//       CHECK:   %[[DOT:.+]] = coda.reduce_partials %[[P]]
//       CHECK:   coda.rms_norm_grad %[[X]], %[[G]], %[[DH]] row_dot %[[DOT]] {epsilon = 9.99999974E-6 : f32}
func.func @norm_before_rope(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<96x64xbf16>, %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> tensor<?x96xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<96x64xbf16>) -> tensor<?x96xbf16>
  %q = coda.slice %z {offset = 0 : i64, size = 64 : i64} : (tensor<?x96xbf16>) -> tensor<?x64xbf16>
  %v = coda.slice %z {offset = 64 : i64, size = 32 : i64} : (tensor<?x96xbf16>) -> tensor<?x32xbf16>
  %r = coda.rope %q, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xbf16>
  %y = coda.concat %r, %v : (tensor<?x64xbf16>, tensor<?x32xbf16>) -> tensor<?x96xbf16>
  return %y : tensor<?x96xbf16>
}

// -----

// A rotated value that something else also reads (an activation) leaves z
// without a linear map to the results, and no product makes dz: the
// gradient sums over dh itself, and the forward saves only z (from which
// the backward recomputes the activation's operand), no result.
// CHECK-LABEL: func.func @norm_before_rope_and_silu_forward(
//  CHECK-SAME:     attributes {coda.saved = 1 : i64}
//       CHECK:   %[[Z:.+]] = coda.linear
//       CHECK:   return %{{[^,]+}}, %{{[^,]+}}, %[[Z]] : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>
// CHECK-LABEL: func.func @norm_before_rope_and_silu_backward(
//   CHECK-NOT:   coda.partial_reduce
//       CHECK:   coda.rms_norm_grad %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}} {epsilon
func.func @norm_before_rope_and_silu(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<64x64xbf16>, %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> (tensor<?x64xbf16>, tensor<?x64xbf16>) {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %r = coda.rope %z, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xbf16>
  %a = coda.silu %r : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %r, %a : tensor<?x64xbf16>, tensor<?x64xbf16>
}

// -----

// A norm whose input a linear makes: the forward returns the rows' scale r
// (a sum of squares finished into rstd, which the reparameterized norm's
// GEMM epilogue computes anyway) after the saved activations, and the
// gradient reads it instead of a statistic of its own. The weight
// gradient's recomputed h is x · r · gamma: tile-local, so an epilogue that
// reads x can make it.
// CHECK-LABEL: func.func @norm_after_linear_forward(
//  CHECK-SAME:     attributes {coda.saved = 3 : i64}
//       CHECK:   %[[O:.+]] = coda.linear
//       CHECK:   %[[SQ:.+]] = coda.partial_reduce %[[O]] {kind = "sum_squares"}
//       CHECK:   %[[R:.+]] = coda.reduce_partials %[[SQ]] {count = 64 : i64, epsilon = 9.99999974E-6 : f32, kind = "rstd"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
//       CHECK:   return %{{.+}}, %[[O]], %{{.+}}, %[[R]] : tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x128xbf16>, tensor<?x1xf32>
// CHECK-LABEL: func.func @norm_after_linear_backward(
//  CHECK-SAME:     %[[SO:[^:]+]]: tensor<?x64xbf16>, %{{[^:]+}}: tensor<?x128xbf16>, %[[SR:[^:]+]]: tensor<?x1xf32>, %{{[^:]+}}: tensor<?x64xbf16>)
//   CHECK-NOT:   coda.rms_norm %
//       CHECK:   %[[H:.+]] = coda.mul_outer %[[SO]], %[[SR]], %{{.+}} : (tensor<?x64xbf16>, tensor<?x1xf32>, tensor<64xbf16>) -> tensor<?x64xbf16>
//       CHECK:   coda.transposed_matmul %{{.+}}, %[[H]]
//       CHECK:   coda.rms_norm_grad %[[SO]], %{{[^,]+}}, %{{[^ ]+}} row_dot %{{[^ ]+}} rstd %[[SR]] {epsilon = 9.99999974E-6 : f32}
func.func @norm_after_linear(%y: tensor<?x64xbf16>, %wo: tensor<64x64xbf16>, %g: tensor<64xbf16>, %w: tensor<128x64xbf16>, %w2: tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  %o = coda.linear %y, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %h = coda.rms_norm %o, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %a = coda.silu %z : (tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %r = coda.linear %a, %w2 : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16>
  return %r : tensor<?x64xbf16>
}
