// RUN: coda-opt %s --split-input-file --canonicalize | FileCheck %s

// Scaling by one is the operand itself.
// CHECK-LABEL: func.func @scale_by_one
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x16xbf16>)
//   CHECK-NOT:   coda.scale
//       CHECK:   return %[[X]]
func.func @scale_by_one(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.scale %x {factor = 1.0 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// Any other factor stays, including -1 and 0.
// CHECK-LABEL: func.func @scale_kept
//       CHECK:   coda.scale %{{.+}} {factor = -1.000000e+00 : f32}
//       CHECK:   coda.scale %{{.+}} {factor = 0.000000e+00 : f32}
func.func @scale_kept(%x: tensor<?x16xbf16>) -> (tensor<?x16xbf16>, tensor<?x16xbf16>) {
  %y = coda.scale %x {factor = -1.0 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  %z = coda.scale %x {factor = 0.0 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y, %z : tensor<?x16xbf16>, tensor<?x16xbf16>
}

// -----

// Scaling by one is not folded when it refines the row count: the types differ.
// CHECK-LABEL: func.func @scale_by_one_refining
//       CHECK:   coda.scale
func.func @scale_by_one_refining(%x: tensor<?x16xbf16>) -> tensor<4x16xbf16> {
  %y = coda.scale %x {factor = 1.0 : f32} : (tensor<?x16xbf16>) -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}
