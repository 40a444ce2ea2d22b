// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A linear without bias on a dynamic row count round-trips.
// CHECK-LABEL: func.func @linear
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xbf16>, %[[W:.+]]: tensor<32x64xbf16>)
//       CHECK:   coda.linear %[[X]], %[[W]] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
func.func @linear(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// The optional bias is a third operand.
// CHECK-LABEL: func.func @linear_bias
//  CHECK-SAME:   (%[[X:.+]]: tensor<16x64xf16>, %[[W:.+]]: tensor<32x64xf16>, %[[B:.+]]: tensor<32xf16>)
//       CHECK:   coda.linear %[[X]], %[[W]], %[[B]] : (tensor<16x64xf16>, tensor<32x64xf16>, tensor<32xf16>) -> tensor<16x32xf16>
func.func @linear_bias(%x: tensor<16x64xf16>, %w: tensor<32x64xf16>, %b: tensor<32xf16>) -> tensor<16x32xf16> {
  %y = coda.linear %x, %w, %b : (tensor<16x64xf16>, tensor<32x64xf16>, tensor<32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

// The result may be wider than the operands: bf16 in, f32 logits out.
// CHECK-LABEL: func.func @linear_f32_result
//       CHECK:   coda.linear %{{.+}}, %{{.+}} : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xf32>
func.func @linear_f32_result(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xf32> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}
