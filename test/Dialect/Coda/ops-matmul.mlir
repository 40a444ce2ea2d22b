// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A matmul of [M, K] by [K, N] round-trips with a dynamic row count.
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x64xf32>, %[[B:.+]]: tensor<64x32xf32>)
//       CHECK:   coda.matmul %[[A]], %[[B]] : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %y = coda.matmul %a, %b : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// -----

// A static row count and bf16 operands with an f32 result.
// CHECK-LABEL: func.func @matmul_static
//       CHECK:   coda.matmul %{{.+}}, %{{.+}} : (tensor<24x16xbf16>, tensor<16x8xbf16>) -> tensor<24x8xf32>
func.func @matmul_static(%a: tensor<24x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<24x8xf32> {
  %y = coda.matmul %a, %b : (tensor<24x16xbf16>, tensor<16x8xbf16>) -> tensor<24x8xf32>
  return %y : tensor<24x8xf32>
}
