// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// LayerNorm takes gamma then beta.
// CHECK-LABEL: func.func @layer_norm
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x48xf16>, %[[G:.+]]: tensor<48xf16>, %[[B:.+]]: tensor<48xf16>)
//       CHECK:   coda.layer_norm %[[X]], %[[G]], %[[B]] {epsilon = 9.99999974E-6 : f32} : (tensor<?x48xf16>, tensor<48xf16>, tensor<48xf16>) -> tensor<?x48xf16>
func.func @layer_norm(%x: tensor<?x48xf16>, %g: tensor<48xf16>, %b: tensor<48xf16>) -> tensor<?x48xf16> {
  %y = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x48xf16>, tensor<48xf16>, tensor<48xf16>) -> tensor<?x48xf16>
  return %y : tensor<?x48xf16>
}
