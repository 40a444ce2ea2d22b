// RUN: coda-opt %s --split-input-file --coda-reparameterize-norms | FileCheck %s
// RUN: coda-opt %s --split-input-file --coda-reparameterize-norms="fold-gamma-into-weights" | FileCheck %s --check-prefix=FOLD

// RMSNorm of a GEMM's output (plus a residual) before a linear: partial sums
// of squares, rstd, h = x * gamma, and a per-row scale by rstd on the
// consuming GEMM's accumulator.
// CHECK-LABEL: func.func @rms_norm_after_gemm
//  CHECK-SAME:   (%[[Y:.+]]: tensor<?x64xbf16>, %[[WO:.+]]: tensor<64x64xbf16>, %[[R:.+]]: tensor<?x64xbf16>, %[[G:.+]]: tensor<64xbf16>, %[[W:.+]]: tensor<32x64xbf16>)
//       CHECK:   %[[O:.+]] = coda.linear %[[Y]], %[[WO]]
//       CHECK:   %[[X:.+]] = coda.add %[[R]], %[[O]]
//       CHECK:   %[[P:.+]] = coda.partial_reduce %[[X]] {kind = "sum_squares"} : (tensor<?x64xbf16>) -> tensor<?x?xf32>
//       CHECK:   %[[RS:.+]] = coda.reduce_partials %[[P]] {count = 64 : i64, epsilon = 9.99999974E-6 : f32, kind = "rstd"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
//       CHECK:   %[[H:.+]] = coda.mul %[[X]], %[[G]] : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
//       CHECK:   %[[Z:.+]] = coda.gemm %[[H]], [%[[W]]] inputs(%[[RS]])
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x32xf32>, %[[RSTD:.+]]: tensor<?x1xf32>):
//       CHECK:     %[[S:.+]] = coda.mul %[[ACC]], %[[RSTD]]
//       CHECK:     coda.yield %[[S]]
//   CHECK-NOT:   coda.rms_norm
//       CHECK:   return %[[Z]]
func.func @rms_norm_after_gemm(%y: tensor<?x64xbf16>, %wo: tensor<64x64xbf16>, %r: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %o = coda.linear %y, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %x = coda.add %r, %o : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %z : tensor<?x32xbf16>
}

// -----

// A 16-bit first-layer RMSNorm (its input is a function argument) stays a
// norm: its h = x * gamma would round a product of two bf16 tensors, a
// biased rounding. With gamma folded into the weight (inference), one
// standalone statistics kernel gives rstd alone and the GEMM reads x.
// CHECK-LABEL: func.func @rms_norm_linear
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xbf16>, %[[G:.+]]: tensor<64xbf16>, %[[W:.+]]: tensor<32x64xbf16>)
//       CHECK:   %[[H:.+]] = coda.rms_norm %[[X]], %[[G]]
//       CHECK:   coda.linear %[[H]], %[[W]]
// FOLD-LABEL: func.func @rms_norm_linear
//  FOLD-SAME:   (%[[X:.+]]: tensor<?x64xbf16>, %[[G:.+]]: tensor<64xbf16>, %[[W:.+]]: tensor<32x64xbf16>)
//       FOLD:   %[[RS:.+]] = coda.norm_statistics %[[X]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>) -> tensor<?x1xf32>
//       FOLD:   %[[WG:.+]] = coda.mul %[[W]], %[[G]] : (tensor<32x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
//       FOLD:   coda.gemm %[[X]], [%[[WG]]] inputs(%[[RS]])
func.func @rms_norm_linear(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// An f32 first-layer RMSNorm: one standalone statistics kernel gives
// h = x * gamma and rstd, and the GEMM scales its accumulator by rstd.
// CHECK-LABEL: func.func @rms_norm_linear_f32
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xf32>, %[[G:.+]]: tensor<64xf32>, %[[W:.+]]: tensor<32x64xf32>)
//       CHECK:   %[[ST:.+]]:2 = coda.norm_statistics %[[X]], %[[G]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> (tensor<?x64xf32>, tensor<?x1xf32>)
//       CHECK:   %[[Y:.+]] = coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[ST]]#1)
//       CHECK:     coda.mul
//   CHECK-NOT:   coda.rms_norm
//       CHECK:   return %[[Y]]
func.func @rms_norm_linear_f32(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<32x64xf32>) -> tensor<?x32xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.linear %h, %w : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// -----

// A norm feeding an existing GEMM: the scale runs before the epilogue it had.
// CHECK-LABEL: func.func @rms_norm_gemm
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] inputs(%{{.+}})
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x64xf32>, %[[RSTD:.+]]: tensor<?x1xf32>):
//       CHECK:     %[[S:.+]] = coda.mul %[[ACC]], %[[RSTD]]
//       CHECK:     %[[A:.+]] = coda.slice %[[S]] {offset = 0 : i64, size = 32 : i64}
//       CHECK:     %[[B:.+]] = coda.slice %[[S]] {offset = 32 : i64, size = 32 : i64}
//       CHECK:     coda.swiglu %[[A]], %[[B]]
func.func @rms_norm_gemm(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %wg: tensor<32x64xf32>, %wu: tensor<32x64xf32>) -> tensor<?x32xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.gemm %h, [%wg, %wu] : (tensor<?x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32> {
  ^bb0(%acc: tensor<?x64xf32>):
    %a = coda.slice %acc {offset = 0 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
    %b = coda.slice %acc {offset = 32 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
    %s = coda.swiglu %a, %b : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %s : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}

// -----

// One norm, two consuming linears: the statistics are computed once.
// CHECK-LABEL: func.func @rms_norm_two_consumers
//       CHECK:   coda.norm_statistics
//   CHECK-NOT:   coda.norm_statistics
//       CHECK:   coda.gemm
//       CHECK:   coda.gemm
func.func @rms_norm_two_consumers(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w0: tensor<32x64xf32>, %w1: tensor<16x64xf32>) -> (tensor<?x32xf32>, tensor<?x16xf32>) {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %a = coda.linear %h, %w0 : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32>
  %b = coda.linear %h, %w1 : (tensor<?x64xf32>, tensor<16x64xf32>) -> tensor<?x16xf32>
  return %a, %b : tensor<?x32xf32>, tensor<?x16xf32>
}

// -----

// A first-layer LayerNorm before a biased linear: the statistics kernel gives
// the centered h = (x - mean) * gamma and rstd, so the accumulator needs only
// rstd, d = beta W^T and the bias.
// CHECK-LABEL: func.func @layer_norm_linear
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xf32>, %[[G:.+]]: tensor<64xf32>, %[[BETA:.+]]: tensor<64xf32>, %[[W:.+]]: tensor<32x64xf32>, %[[BIAS:.+]]: tensor<32xf32>)
//       CHECK:   %[[ST:.+]]:3 = coda.norm_statistics %[[X]], %[[G]] {epsilon = 9.99999974E-6 : f32, kind = "layer_norm"}
//       CHECK:   %[[BROW:.+]] = tensor.expand_shape %[[BETA]] {{\[\[}}0, 1]] output_shape [1, 64]
//       CHECK:   %[[D2:.+]] = coda.linear %[[BROW]], %[[W]] : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32>
//       CHECK:   %[[D:.+]] = tensor.collapse_shape %[[D2]]
//       CHECK:   coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[BIAS]], %[[ST]]#1, %[[D]])
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x32xf32>, %[[B:.+]]: tensor<32xf32>, %[[RSTD:.+]]: tensor<?x1xf32>, %[[DA:.+]]: tensor<32xf32>):
//       CHECK:     %[[T0:.+]] = coda.mul %[[ACC]], %[[RSTD]]
//       CHECK:     %[[T1:.+]] = coda.add %[[T0]], %[[DA]]
//       CHECK:     %[[T2:.+]] = coda.add %[[T1]], %[[B]]
//       CHECK:     coda.yield %[[T2]]
func.func @layer_norm_linear(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>, %w: tensor<32x64xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.linear %h, %w, %b : (tensor<?x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// -----

// Refused: a norm whose result is also returned stays, since its output is needed.
// CHECK-LABEL: func.func @rms_norm_returned
//       CHECK:   coda.rms_norm
//   CHECK-NOT:   coda.partial_reduce
func.func @rms_norm_returned(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<32x64xbf16>) -> (tensor<?x32xbf16>, tensor<?x64xbf16>) {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y, %h : tensor<?x32xbf16>, tensor<?x64xbf16>
}

// -----

// Refused: a norm feeding an elementwise op has no GEMM to take its scale.
// CHECK-LABEL: func.func @rms_norm_elementwise_user
//       CHECK:   coda.rms_norm
func.func @rms_norm_elementwise_user(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.silu %h : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// Refused: a norm used as a linear's weight is not an activation.
// CHECK-LABEL: func.func @rms_norm_as_weight
//       CHECK:   coda.rms_norm
func.func @rms_norm_as_weight(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x32xbf16> {
  %wn = coda.rms_norm %w, %g {epsilon = 1.0e-05 : f32} : (tensor<32x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
  %y = coda.linear %x, %wn : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// LayerNorm after a GEMM: block sums and centered sums of squares finished
// into the mean and rstd; the accumulator is corrected by rstd, the rank-one
// mean term with c = gamma W^T, and d = beta W^T.
// CHECK-LABEL: func.func @layer_norm_after_gemm
//       CHECK:   %[[X:.+]] = coda.linear
//       CHECK:   %[[S:.+]] = coda.partial_reduce %[[X]] : (tensor<?x64xf32>) -> tensor<?x?xf32>
//       CHECK:   %[[Q:.+]] = coda.partial_reduce %[[X]] {kind = "centered_sum_squares"}
//       CHECK:   %[[MR:.+]]:2 = coda.reduce_partials %[[S]], %[[Q]] {count = 64 : i64, epsilon = 9.99999974E-6 : f32, kind = "mean_rstd"}
//       CHECK:   %[[H:.+]] = coda.mul %[[X]], %{{.+}}
//       CHECK:   coda.gemm %[[H]], [%{{.+}}] inputs(%[[MR]]#1, %[[MR]]#0, %{{.+}}, %{{.+}})
//       CHECK:     %[[T0:.+]] = coda.mul
//       CHECK:     %[[RM:.+]] = coda.mul
//       CHECK:     %[[NRM:.+]] = coda.scale %[[RM]] {factor = -1.000000e+00 : f32}
//       CHECK:     coda.add_outer %[[T0]], %[[NRM]], %{{.+}}
func.func @layer_norm_after_gemm(%y: tensor<?x64xf32>, %wo: tensor<64x64xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>, %w: tensor<32x64xf32>) -> tensor<?x32xf32> {
  %x = coda.linear %y, %wo : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %z = coda.linear %h, %w : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32>
  return %z : tensor<?x32xf32>
}
