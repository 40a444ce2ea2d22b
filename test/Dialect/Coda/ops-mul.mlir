// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Two matrices of one shape.
// CHECK-LABEL: func.func @mul_matrix
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x16xbf16>, %[[B:.+]]: tensor<?x16xbf16>)
//       CHECK:   coda.mul %[[A]], %[[B]] : (tensor<?x16xbf16>, tensor<?x16xbf16>) -> tensor<?x16xbf16>
func.func @mul_matrix(%a: tensor<?x16xbf16>, %b: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.mul %a, %b : (tensor<?x16xbf16>, tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// A vector operand broadcasts over the rows.
// CHECK-LABEL: func.func @mul_row_vector
//       CHECK:   coda.mul %{{.+}}, %{{.+}} : (tensor<5x16xf32>, tensor<16xf32>) -> tensor<5x16xf32>
func.func @mul_row_vector(%a: tensor<5x16xf32>, %b: tensor<16xf32>) -> tensor<5x16xf32> {
  %y = coda.mul %a, %b : (tensor<5x16xf32>, tensor<16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

// A static and a dynamic row count are compatible.
// CHECK-LABEL: func.func @mul_mixed_rows
//       CHECK:   coda.mul %{{.+}}, %{{.+}} : (tensor<7x16xf16>, tensor<?x16xf16>) -> tensor<?x16xf16>
func.func @mul_mixed_rows(%a: tensor<7x16xf16>, %b: tensor<?x16xf16>) -> tensor<?x16xf16> {
  %y = coda.mul %a, %b : (tensor<7x16xf16>, tensor<?x16xf16>) -> tensor<?x16xf16>
  return %y : tensor<?x16xf16>
}
