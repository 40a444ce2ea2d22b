// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Rotate-half RoPE over two heads of 8; "half" is the default style.
// CHECK-LABEL: func.func @rope_half
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x16xbf16>, %[[C:.+]]: tensor<?x4xf32>, %[[S:.+]]: tensor<?x4xf32>)
//       CHECK:   coda.rope %[[X]], %[[C]], %[[S]] {head_dim = 8 : i64} : (tensor<?x16xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x16xbf16>
func.func @rope_half(%x: tensor<?x16xbf16>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>) -> tensor<?x16xbf16> {
  %y = coda.rope %x, %cos, %sin {head_dim = 8 : i64, style = "half"} : (tensor<?x16xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// Interleaved RoPE keeps its style.
// CHECK-LABEL: func.func @rope_interleaved
//       CHECK:   coda.rope {{.*}} {head_dim = 8 : i64, style = "interleaved"} : (tensor<6x16xf32>, tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x16xf32>
func.func @rope_interleaved(%x: tensor<6x16xf32>, %cos: tensor<6x4xf32>, %sin: tensor<6x4xf32>) -> tensor<6x16xf32> {
  %y = coda.rope %x, %cos, %sin {head_dim = 8 : i64, style = "interleaved"} : (tensor<6x16xf32>, tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x16xf32>
  return %y : tensor<6x16xf32>
}
