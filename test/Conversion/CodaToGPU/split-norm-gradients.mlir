// RUN: coda-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coda-split-norm-gradients))' | FileCheck %s

// The residual stream's gradient joins the row kernel that makes dx, in
// either operand order; dgamma is the sum of the 1056 partial rows.
// CHECK-LABEL: func.func @residual
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x256xbf16>, %[[G:.+]]: tensor<256xbf16>, %[[DY:.+]]: tensor<?x256xbf16>, %[[R:.+]]: tensor<?x256xbf16>)
//       CHECK:   %[[P:.+]], %[[DX:.+]] = coda.rms_norm_grad_partials %[[X]], %[[G]], %[[DY]], %[[R]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<1056x256xf32>, tensor<?x256xbf16>)
//       CHECK:   %[[DG:.+]] = coda.sum_rows %[[P]] : (tensor<1056x256xf32>) -> tensor<256xbf16>
//       CHECK:   %{{.+}}, %[[DX2:.+]] = coda.rms_norm_grad_partials %[[X]], %[[G]], %[[DY]], %[[R]]
//   CHECK-NOT:   coda.add
//       CHECK:   return %[[DX]], %[[DG]], %[[DX2]]
func.func @residual(%x: tensor<?x256xbf16>, %g: tensor<256xbf16>, %dy: tensor<?x256xbf16>, %r: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) {
  %dx, %dg = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>)
  %s = coda.add %r, %dx : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %dx2, %dg2 = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>)
  %s2 = coda.add %dx2, %r : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %s, %dg, %s2 : tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>
}

// -----

// dx used twice, or summed with a value made after it: the sum stays a
// kernel of its own.
// CHECK-LABEL: func.func @kept
//       CHECK:   %[[P:.+]], %[[DX:.+]] = coda.rms_norm_grad_partials %{{.+}}, %{{.+}}, %{{.+}} {epsilon
//  CHECK-SAME:     -> (tensor<1056x256xf32>, tensor<?x256xbf16>)
//       CHECK:   coda.add %{{.+}}, %[[DX]]
//       CHECK:   %[[P2:.+]], %[[DX2:.+]] = coda.rms_norm_grad_partials %{{.+}}, %{{.+}}, %{{.+}} {epsilon
//  CHECK-SAME:     -> (tensor<1056x256xf32>, tensor<?x256xbf16>)
//       CHECK:   %[[LATER:.+]] = coda.mul
//       CHECK:   coda.add %[[LATER]], %[[DX2]]
func.func @kept(%x: tensor<?x256xbf16>, %g: tensor<256xbf16>, %dy: tensor<?x256xbf16>, %r: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) {
  %dx, %dg = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>)
  %s = coda.add %r, %dx : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %dx2, %dg2 = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>)
  %later = coda.mul %r, %r : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %s2 = coda.add %later, %dx2 : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %s, %dx, %s2, %dg, %dg2 : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>
}

// -----

// A row statistic given to a gradient whose dy no GEMM makes: the row
// kernel computes its own, and the statistic's partials leave the GEMM
// that made them.
// CHECK-LABEL: func.func @unused_statistic
//       CHECK:   %[[Z:.+]] = coda.gemm
//       CHECK:     coda.yield %{{.+}} : tensor<?x256xf32>
//   CHECK-NOT:   coda.reduce_partials
//       CHECK:   coda.rms_norm_grad_partials
//       CHECK:   return %[[Z]]
func.func @unused_statistic(%a: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %x: tensor<?x256xbf16>, %g: tensor<256xbf16>, %dy: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>) {
  %z:2 = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<256x64xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x256xf32>):
    %p = coda.partial_reduce %acc : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %acc, %p : tensor<?x256xf32>, tensor<?x?xf32>
  }
  %s = coda.reduce_partials %z#1 : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dy row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>, tensor<?x1xf32>) -> (tensor<?x256xbf16>, tensor<256xbf16>)
  return %z#0, %dx, %dg : tensor<?x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>
}

// -----

// The LayerNorm gradient the same way: the residual sum joins its row
// kernel, and dgamma and dbeta are each the sum of their 1056 partial rows.
// CHECK-LABEL: func.func @layer_norm
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x256xbf16>, %[[G:.+]]: tensor<256xbf16>, %[[DY:.+]]: tensor<?x256xbf16>, %[[R:.+]]: tensor<?x256xbf16>)
//       CHECK:   %[[PG:.+]], %[[PB:.+]], %[[DX:.+]] = coda.layer_norm_grad_partials %[[X]], %[[G]], %[[DY]], %[[R]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>, tensor<?x256xbf16>) -> (tensor<1056x256xf32>, tensor<1056x256xf32>, tensor<?x256xbf16>)
//       CHECK:   %[[DG:.+]] = coda.sum_rows %[[PG]] : (tensor<1056x256xf32>) -> tensor<256xbf16>
//       CHECK:   %[[DB:.+]] = coda.sum_rows %[[PB]] : (tensor<1056x256xf32>) -> tensor<256xbf16>
//   CHECK-NOT:   coda.add
//       CHECK:   return %[[DX]], %[[DG]], %[[DB]]
func.func @layer_norm(%x: tensor<?x256xbf16>, %g: tensor<256xbf16>, %dy: tensor<?x256xbf16>, %r: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) {
  %dx, %dg, %db = coda.layer_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : (tensor<?x256xbf16>, tensor<256xbf16>, tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>)
  %s = coda.add %dx, %r : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %s, %dg, %db : tensor<?x256xbf16>, tensor<256xbf16>, tensor<256xbf16>
}
