// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// RMSNorm keeps its epsilon and its operand order.
// CHECK-LABEL: func.func @rms_norm
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xbf16>, %[[G:.+]]: tensor<64xbf16>)
//       CHECK:   coda.rms_norm %[[X]], %[[G]] {epsilon = 9.99999997E-7 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
func.func @rms_norm(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.rms_norm %x, %g {epsilon = 1.0e-06 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// An epsilon of zero is allowed, as in PyTorch.
// CHECK-LABEL: func.func @rms_norm_zero_epsilon
//       CHECK:   coda.rms_norm {{.*}} {epsilon = 0.000000e+00 : f32} : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
func.func @rms_norm_zero_epsilon(%x: tensor<3x8xf32>, %g: tensor<8xf32>) -> tensor<3x8xf32> {
  %y = coda.rms_norm %x, %g {epsilon = 0.0 : f32} : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

// -----

// A negative zero epsilon is zero.
// CHECK-LABEL: func.func @rms_norm_negative_zero_epsilon
//       CHECK:   coda.rms_norm {{.*}} {epsilon = -0.000000e+00 : f32}
func.func @rms_norm_negative_zero_epsilon(%x: tensor<3x8xf32>, %g: tensor<8xf32>) -> tensor<3x8xf32> {
  %y = coda.rms_norm %x, %g {epsilon = -0.0 : f32} : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
