// RUN: coda-opt %s --split-input-file --coda-form-epilogues | FileCheck %s
// RUN: coda-opt %s --split-input-file --coda-form-epilogues="max-epilogue-ops=1" | FileCheck %s --check-prefix=MAX1

// A linear alone becomes a GEMM whose epilogue adds the bias.
// CHECK-LABEL: func.func @linear_bias
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16> {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x32xf32>, %[[B:.+]]: tensor<32xf32>):
//       CHECK:     %[[Y:.+]] = coda.add %[[ACC]], %[[B]]
//       CHECK:     coda.yield %[[Y]]
//   CHECK-NOT:   coda.linear
func.func @linear_bias(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// Residual add, the new stream kept as an output, partial sums of squares and
// h = x * gamma: three outputs of one GEMM.
// CHECK-LABEL: func.func @residual_partial_norm
//  CHECK-SAME:   (%[[Y:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<64x64xbf16>, %[[X0:.+]]: tensor<?x64xbf16>, %[[G:.+]]: tensor<64xbf16>)
//       CHECK:   %[[K:.+]]:3 = coda.gemm %[[Y]], [%[[W]]] inputs(%[[X0]], %[[G]]) : {{.*}} -> (tensor<?x64xbf16>, tensor<?x?xf32>, tensor<?x64xbf16>) {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x64xf32>, %[[RES:.+]]: tensor<?x64xf32>, %[[GA:.+]]: tensor<64xf32>):
//       CHECK:     %[[X1:.+]] = coda.add %[[RES]], %[[ACC]]
//       CHECK:     %[[P:.+]] = coda.partial_reduce %[[X1]] {kind = "sum_squares"}
//       CHECK:     %[[H:.+]] = coda.mul %[[X1]], %[[GA]]
//       CHECK:     coda.yield %[[X1]], %[[P]], %[[H]]
//       CHECK:   return %[[K]]#0, %[[K]]#1, %[[K]]#2
func.func @residual_partial_norm(%y: tensor<?x64xbf16>, %w: tensor<64x64xbf16>, %x0: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<?x?xf32>, tensor<?x64xbf16>) {
  %o = coda.linear %y, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %p = coda.partial_reduce %x1 {kind = "sum_squares"} : (tensor<?x64xbf16>) -> tensor<?x?xf32>
  %h = coda.mul %x1, %g : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %x1, %p, %h : tensor<?x64xbf16>, tensor<?x?xf32>, tensor<?x64xbf16>
}

// -----

// Activations and a scale chain into the epilogue; the intermediate values
// leave the GEMM once nobody outside reads them.
// CHECK-LABEL: func.func @activation_chain
//       CHECK:   %[[K:.+]] = coda.gemm {{.*}} -> tensor<?x32xbf16> {
//       CHECK:     coda.scale
//       CHECK:     coda.gelu %{{.+}} {approximate = "tanh"}
//       CHECK:     coda.silu
//       CHECK:     coda.relu
//       CHECK:     coda.sigmoid
//       CHECK:     %[[T:.+]] = coda.tanh
//       CHECK:     coda.yield %[[T]]
//   CHECK-NOT:   coda.silu
//       CHECK:   return %[[K]]
func.func @activation_chain(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  %s = coda.scale %y {factor = 0.5 : f32} : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %a = coda.gelu %s {approximate = "tanh"} : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %b = coda.silu %a : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %c = coda.relu %b : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %d = coda.sigmoid %c : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %e = coda.tanh %d : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %e : tensor<?x32xbf16>
}

// -----

// SwiGLU on two column ranges of one GEMM halves the stored width.
// CHECK-LABEL: func.func @swiglu
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] : {{.*}} -> tensor<?x32xbf16> {
//   CHECK-DAG:     %[[G:.+]] = coda.slice %{{.+}} {offset = 0 : i64, size = 32 : i64}
//   CHECK-DAG:     %[[U:.+]] = coda.slice %{{.+}} {offset = 32 : i64, size = 32 : i64}
//       CHECK:     %[[A:.+]] = coda.swiglu %[[G]], %[[U]]
//       CHECK:     coda.yield %[[A]] : tensor<?x32xf32>
//   CHECK-NOT:   coda.swiglu
func.func @swiglu(%h: tensor<?x64xbf16>, %wg: tensor<32x64xbf16>, %wu: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %gu = coda.gemm %h, [%wg, %wu] : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  %g = coda.slice %gu {offset = 0 : i64, size = 32 : i64} : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  %u = coda.slice %gu {offset = 32 : i64, size = 32 : i64} : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  %a = coda.swiglu %g, %u : (tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %a : tensor<?x32xbf16>
}

// -----

// RoPE on the q and k column ranges, v untouched, concatenated back: one output.
// CHECK-LABEL: func.func @qkv_rope
//       CHECK:   %[[K:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}, %{{.+}}) : {{.*}} -> tensor<?x32xbf16> {
//   CHECK-DAG:     %[[Q:.+]] = coda.slice %{{.+}} {offset = 0 : i64, size = 16 : i64}
//   CHECK-DAG:     %[[KK:.+]] = coda.slice %{{.+}} {offset = 16 : i64, size = 8 : i64}
//   CHECK-DAG:     %[[V:.+]] = coda.slice %{{.+}} {offset = 24 : i64, size = 8 : i64}
//   CHECK-DAG:     %[[QR:.+]] = coda.rope %[[Q]], {{.*}} {head_dim = 8 : i64}
//   CHECK-DAG:     %[[KR:.+]] = coda.rope %[[KK]], {{.*}} {head_dim = 8 : i64, style = "interleaved"}
//       CHECK:     %[[ALL:.+]] = coda.concat %[[QR]], %[[KR]], %[[V]]
//       CHECK:     coda.yield %[[ALL]]
//       CHECK:   return %[[K]]
func.func @qkv_rope(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>) -> tensor<?x32xbf16> {
  %qkv = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  %q = coda.slice %qkv {offset = 0 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
  %k = coda.slice %qkv {offset = 16 : i64, size = 8 : i64} : (tensor<?x32xbf16>) -> tensor<?x8xbf16>
  %v = coda.slice %qkv {offset = 24 : i64, size = 8 : i64} : (tensor<?x32xbf16>) -> tensor<?x8xbf16>
  %qr = coda.rope %q, %cos, %sin {head_dim = 8 : i64, style = "half"} : (tensor<?x16xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x16xbf16>
  %kr = coda.rope %k, %cos, %sin {head_dim = 8 : i64, style = "interleaved"} : (tensor<?x8xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xbf16>
  %out = coda.concat %qr, %kr, %v : (tensor<?x16xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x32xbf16>
  return %out : tensor<?x32xbf16>
}

// -----

// A consumer of two GEMMs joins the later one, reading the earlier result as
// an input (the residual of a down projection).
// CHECK-LABEL: func.func @two_gemms
//       CHECK:   %[[A:.+]] = coda.gemm %{{.+}}, [%{{.+}}] : {{.*}} -> tensor<?x64xbf16>
//       CHECK:   %[[B:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%[[A]])
//       CHECK:     coda.add %[[RES:.+]], %[[ACC:.+]] :
//       CHECK:   return %[[B]]
func.func @two_gemms(%x: tensor<?x64xbf16>, %w0: tensor<64x64xbf16>, %w1: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %a = coda.linear %x, %w0 : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %b = coda.linear %a, %w1 : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %s = coda.add %a, %b : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %s : tensor<?x64xbf16>
}

// -----

// Refused: an op on function arguments only has no producing GEMM.
// CHECK-LABEL: func.func @no_gemm
//       CHECK:   coda.add
//   CHECK-NOT:   coda.gemm
func.func @no_gemm(%a: tensor<?x64xbf16>, %b: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %s = coda.add %a, %b : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %s : tensor<?x64xbf16>
}

// -----

// Refused: an operand computed after the GEMM cannot be read by its epilogue.
// CHECK-LABEL: func.func @operand_after_gemm
//       CHECK:   coda.gemm
//       CHECK:   coda.silu
//       CHECK:   coda.add
func.func @operand_after_gemm(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>, %r: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %t = coda.silu %r : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %s = coda.add %y, %t : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %s : tensor<?x64xbf16>
}

// -----

// Refused: a non-tile-local consumer (a norm over whole rows) stays outside.
// CHECK-LABEL: func.func @norm_consumer
//       CHECK:   coda.gemm
//       CHECK:   coda.rms_norm
func.func @norm_consumer(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %n = coda.rms_norm %y, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %n : tensor<?x64xbf16>
}

// -----

// max-epilogue-ops caps how much one epilogue absorbs.
// MAX1-LABEL: func.func @capped_epilogue
//       MAX1:   coda.gemm
//       MAX1:     coda.silu
//       MAX1:   coda.relu
func.func @capped_epilogue(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %a = coda.silu %y : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %b = coda.relu %a : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %b : tensor<?x64xbf16>
}

// -----

// The LM head's loss from epilogue partials: the GEMM yields per-tile
// log-sum-exps and target logits instead of the logits.
// CHECK-LABEL: func.func @lm_head_loss
//  CHECK-SAME:   (%[[H:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<256x64xbf16>, %[[T:.+]]: tensor<?xi64>)
//       CHECK:   %[[K:.+]]:2 = coda.gemm %[[H]], [%[[W]]] inputs(%[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x256xf32>, %[[TA:.+]]: tensor<?xi64>):
//       CHECK:     %[[LSE:.+]] = coda.partial_reduce %[[ACC]] {kind = "lse"}
//       CHECK:     %[[PICK:.+]] = coda.partial_gather %[[ACC]], %[[TA]]
//       CHECK:     coda.yield %[[LSE]], %[[PICK]]
//       CHECK:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       CHECK:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       CHECK:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] {ignore_index = 0 : i64, reduction = "sum"}
//   CHECK-NOT:   coda.cross_entropy %
//       CHECK:   return %[[L]]
func.func @lm_head_loss(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %t: tensor<?xi64>) -> tensor<f32> {
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xf32>
  %loss = coda.cross_entropy %logits, %t {ignore_index = 0 : i64, reduction = "sum"} : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// When the logits are returned too, they stay an output beside the partials.
// CHECK-LABEL: func.func @lm_head_logits_and_loss
//       CHECK:   %[[K:.+]]:3 = coda.gemm
//       CHECK:   return %[[K]]#0
func.func @lm_head_logits_and_loss(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %t: tensor<?xi64>) -> (tensor<?x256xf32>, tensor<f32>) {
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xf32>
  %loss = coda.cross_entropy %logits, %t : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<f32>
  return %logits, %loss : tensor<?x256xf32>, tensor<f32>
}

// -----

// Refused: cross-entropy over logits no GEMM produced.
// CHECK-LABEL: func.func @loss_of_argument
//       CHECK:   coda.cross_entropy
//   CHECK-NOT:   coda.cross_entropy_from_partials
func.func @loss_of_argument(%logits: tensor<?x256xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  %loss = coda.cross_entropy %logits, %t : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// Refused: targets computed after the GEMM of the logits cannot be read by
// its epilogue, so the loss reads the stored logits.
// CHECK-LABEL: func.func @targets_after_gemm
//       CHECK:   coda.gemm
//       CHECK:   coda.cross_entropy %
//   CHECK-NOT:   coda.cross_entropy_from_partials
func.func @targets_after_gemm(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %t: tensor<?xi64>, %shift: tensor<?xi64>) -> tensor<f32> {
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xf32>
  %targets = arith.addi %t, %shift : tensor<?xi64>
  %loss = coda.cross_entropy %logits, %targets : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// A matmul (the dgrad of a backward, dy · W) becomes a GEMM that reads its
// [K, N] operand as it is (b_layout "kn"); the activation's gradient at the
// saved pre-activation joins its epilogue.
// CHECK-LABEL: func.func @dgrad_silu
//  CHECK-SAME:   (%[[DY:[^:]+]]: tensor<?x32xbf16>, %[[W:[^:]+]]: tensor<32x64xbf16>, %[[X:[^:]+]]: tensor<?x64xbf16>)
//       CHECK:   coda.gemm %[[DY]], [%[[W]]] inputs(%[[X]]) {b_layout = "kn"}
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x64xf32>, %[[XIN:.+]]: tensor<?x64xf32>):
//       CHECK:     %[[G:.+]] = coda.activation_grad %[[XIN]], %[[ACC]] : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:     coda.yield %[[G]]
func.func @dgrad_silu(%dy: tensor<?x32xbf16>, %w: tensor<32x64xbf16>, %x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %d = coda.matmul %dy, %w : (tensor<?x32xbf16>, tensor<32x64xbf16>) -> tensor<?x64xbf16>
  %g = coda.activation_grad %x, %d {activation = "silu"} : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %g : tensor<?x64xbf16>
}

// -----

// A log-sum-exp of a GEMM's output comes from per-tile log-sum-exps in its
// epilogue: the logits are not stored for it.
// CHECK-LABEL: func.func @log_sum_exp
//       CHECK:   %[[P:.+]] = coda.gemm
//       CHECK:     %[[T:.+]] = coda.partial_reduce %{{.+}} {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
//       CHECK:     coda.yield %[[T]] : tensor<?x?xf32>
//       CHECK:   coda.reduce_partials %[[P]] {kind = "lse"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
func.func @log_sum_exp(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>) -> tensor<?x1xf32> {
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> tensor<?x256xf32>
  %s = coda.log_sum_exp %logits : (tensor<?x256xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// -----

// An RMSNorm gradient whose row statistic is given runs in the epilogue of
// the GEMM that makes dy: dx = r · gamma · dy − x · (r² · s / D), with the
// residual gradient that dx feeds, and dgamma from per-16-row sums of
// dy · x · r. The norm's scale r comes from a statistics kernel over x;
// the statistic s moves before the GEMM.
// CHECK-LABEL: func.func @norm_gradient
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[DZ:[^:]+]]: tensor<?x128xbf16>, %[[W:[^:]+]]: tensor<128x64xbf16>, %[[P:[^:]+]]: tensor<?x?xf32>, %[[RES:[^:]+]]: tensor<?x64xbf16>)
//       CHECK:   %[[S:.+]] = coda.reduce_partials %[[P]]
//       CHECK:   %[[R:.+]] = coda.norm_statistics %[[X]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>) -> tensor<?x1xf32>
//       CHECK:   %[[GEMM:.+]]:2 = coda.gemm %[[DZ]], [%[[W]]] inputs(%[[X]], %[[G]], %[[R]], %[[S]], %[[RES]]) {b_layout = "kn"}
//       CHECK:   ^bb0(%[[ACC:[^:]+]]: tensor<?x64xf32>, %[[XA:[^:]+]]: tensor<?x64xf32>, %[[GA:[^:]+]]: tensor<64xf32>, %[[RA:[^:]+]]: tensor<?x1xf32>, %[[SA:[^:]+]]: tensor<?x1xf32>, %[[RESA:[^:]+]]: tensor<?x64xf32>):
//       CHECK:     %[[T0:.+]] = coda.mul %[[ACC]], %[[GA]]
//       CHECK:     %[[T1:.+]] = coda.mul %[[T0]], %[[RA]]
//       CHECK:     %[[R2:.+]] = coda.mul %[[RA]], %[[RA]]
//       CHECK:     %[[C0:.+]] = coda.mul %[[R2]], %[[SA]]
//       CHECK:     %[[C:.+]] = coda.scale %[[C0]] {factor = -1.562500e-02 : f32}
//       CHECK:     %[[XC:.+]] = coda.mul %[[XA]], %[[C]]
//       CHECK:     %[[DX:.+]] = coda.add %[[T1]], %[[XC]]
//       CHECK:     %[[N:.+]] = coda.mul %[[XA]], %[[RA]]
//       CHECK:     %[[DYN:.+]] = coda.mul %[[ACC]], %[[N]]
//       CHECK:     %[[SUMS:.+]] = coda.partial_sum_rows %[[DYN]] {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:     %[[TOTAL:.+]] = coda.add %[[RESA]], %[[DX]]
//       CHECK:     coda.yield %[[SUMS]], %[[TOTAL]] : tensor<?x64xf32>, tensor<?x64xf32>
//       CHECK:   %[[DG:.+]] = coda.sum_rows %[[GEMM]]#0 : (tensor<?x64xf32>) -> tensor<64xbf16>
//       CHECK:   return %[[GEMM]]#1, %[[DG]]
func.func @norm_gradient(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dz: tensor<?x128xbf16>, %w: tensor<128x64xbf16>, %p: tensor<?x?xf32>, %res: tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %dh = coda.matmul %dz, %w : (tensor<?x128xbf16>, tensor<128x64xbf16>) -> tensor<?x64xbf16>
  %s = coda.reduce_partials %p : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dh row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  %total = coda.add %res, %dx : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %total, %dg : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// With the forward's scale r given, the epilogue reads it: no statistics
// kernel over x.
// CHECK-LABEL: func.func @norm_gradient_saved_rstd
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[DZ:[^:]+]]: tensor<?x128xbf16>, %[[W:[^:]+]]: tensor<128x64xbf16>, %[[S:[^:]+]]: tensor<?x1xf32>, %[[R:[^:]+]]: tensor<?x1xf32>)
//   CHECK-NOT:   coda.norm_statistics
//       CHECK:   coda.gemm %[[DZ]], [%[[W]]] inputs(%[[X]], %[[G]], %[[R]], %[[S]]) {b_layout = "kn"}
func.func @norm_gradient_saved_rstd(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dz: tensor<?x128xbf16>, %w: tensor<128x64xbf16>, %s: tensor<?x1xf32>, %r: tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %dh = coda.matmul %dz, %w : (tensor<?x128xbf16>, tensor<128x64xbf16>) -> tensor<?x64xbf16>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dh row_dot %s rstd %r {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>, tensor<?x1xf32>, tensor<?x1xf32>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  return %dx, %dg : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// Without a row statistic the gradient stays whole (a row kernel on the GPU).
// CHECK-LABEL: func.func @norm_gradient_without_statistic
//       CHECK:   coda.gemm
//       CHECK:   coda.rms_norm_grad
//   CHECK-NOT:   coda.partial_sum_rows
func.func @norm_gradient_without_statistic(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %dz: tensor<?x128xbf16>, %w: tensor<128x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %dh = coda.matmul %dz, %w : (tensor<?x128xbf16>, tensor<128x64xbf16>) -> tensor<?x64xbf16>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dh {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>)
  return %dx, %dg : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// A sum over the rows of a GEMM's tile (a bias gradient) comes from
// per-16-row sums in its epilogue, finished by a sum over the blocks.
// CHECK-LABEL: func.func @bias_gradient
//       CHECK:   %[[G:.+]]:2 = coda.gemm
//       CHECK:     %[[D:.+]] = coda.activation_grad
//       CHECK:     %[[S:.+]] = coda.partial_sum_rows %[[D]] {block_rows = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
//       CHECK:     coda.yield %[[D]], %[[S]] : tensor<?x64xf32>, tensor<?x64xf32>
//       CHECK:   %[[B:.+]] = coda.sum_rows %[[G]]#1 : (tensor<?x64xf32>) -> tensor<64xbf16>
//       CHECK:   return %[[G]]#0, %[[B]]
func.func @bias_gradient(%dy: tensor<?x32xbf16>, %w: tensor<32x64xbf16>, %x: tensor<?x64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %d = coda.matmul %dy, %w : (tensor<?x32xbf16>, tensor<32x64xbf16>) -> tensor<?x64xbf16>
  %g = coda.activation_grad %x, %d {activation = "silu"} : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %b = coda.sum_rows %g : (tensor<?x64xbf16>) -> tensor<64xbf16>
  return %g, %b : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// A weight gradient's output is summed by a kernel of its own: its rows are
// the weight's, not the a operand's.
// CHECK-LABEL: func.func @weight_gradient_sum
//       CHECK:   %[[G:.+]] = coda.gemm
//   CHECK-NOT:     coda.partial_sum_rows
//       CHECK:   coda.sum_rows %[[G]] : (tensor<32x64xbf16>) -> tensor<64xbf16>
func.func @weight_gradient_sum(%dy: tensor<?x32xbf16>, %x: tensor<?x64xbf16>) -> tensor<64xbf16> {
  %dw = coda.transposed_matmul %dy, %x : (tensor<?x32xbf16>, tensor<?x64xbf16>) -> tensor<32x64xbf16>
  %b = coda.sum_rows %dw : (tensor<32x64xbf16>) -> tensor<64xbf16>
  return %b : tensor<64xbf16>
}

// -----

// The cross-entropy gradient of recomputed logits goes into the logits
// GEMM's epilogue with its rows' log-sum-exps, weights and targets as
// inputs, and its rounding to bf16 for the next product becomes that GEMM's
// result type: neither the f32 logits nor their f32 gradient is stored.
// CHECK-LABEL: func.func @logits_grad
//  CHECK-SAME:   (%[[H:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<128x64xbf16>, %[[LSE:.+]]: tensor<?x1xf32>, %[[WT:.+]]: tensor<?x1xf32>, %[[T:.+]]: tensor<?xi64>)
//       CHECK:   %[[G:.+]] = coda.gemm %[[H]], [%[[W]]] inputs(%[[LSE]], %[[WT]], %[[T]]) : (tensor<?x64xbf16>, tensor<128x64xbf16>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x128xbf16> {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x128xf32>, %[[A:.+]]: tensor<?x1xf32>, %[[B:.+]]: tensor<?x1xf32>, %[[C:.+]]: tensor<?xi64>):
//       CHECK:     %[[D:.+]] = coda.softmax_target_grad %[[ACC]], %[[A]], %[[B]], %[[C]]
//       CHECK:     coda.yield %[[D]] : tensor<?x128xf32>
//   CHECK-NOT:   arith.truncf
//       CHECK:   coda.gemm %[[G]], [%[[W]]] {b_layout = "kn"}
func.func @logits_grad(%h: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %lse: tensor<?x1xf32>, %wt: tensor<?x1xf32>, %t: tensor<?xi64>) -> tensor<?x64xbf16> {
  %l = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xf32>
  %g = coda.softmax_target_grad %l, %lse, %wt, %t : (tensor<?x128xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x128xf32>
  %b = arith.truncf %g : tensor<?x128xf32> to tensor<?x128xbf16>
  %dh = coda.matmul %b, %w : (tensor<?x128xbf16>, tensor<128x64xbf16>) -> tensor<?x64xbf16>
  return %dh : tensor<?x64xbf16>
}
