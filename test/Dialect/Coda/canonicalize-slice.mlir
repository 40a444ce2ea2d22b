// RUN: coda-opt %s --split-input-file --canonicalize | FileCheck %s

// A slice of the whole width is the operand.
// CHECK-LABEL: func.func @slice_whole
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x32xbf16>)
//   CHECK-NOT:   coda.slice
//       CHECK:   return %[[X]]
func.func @slice_whole(%x: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.slice %x {offset = 0 : i64, size = 32 : i64} : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// A slice of a slice reads one range of the source.
// CHECK-LABEL: func.func @slice_of_slice
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x64xbf16>)
//       CHECK:   %[[S:.+]] = coda.slice %[[X]] {offset = 24 : i64, size = 8 : i64} : (tensor<?x64xbf16>) -> tensor<?x8xbf16>
//   CHECK-NOT:   coda.slice
//       CHECK:   return %[[S]]
func.func @slice_of_slice(%x: tensor<?x64xbf16>) -> tensor<?x8xbf16> {
  %a = coda.slice %x {offset = 16 : i64, size = 32 : i64} : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  %b = coda.slice %a {offset = 8 : i64, size = 8 : i64} : (tensor<?x32xbf16>) -> tensor<?x8xbf16>
  return %b : tensor<?x8xbf16>
}

// -----

// A proper slice stays.
// CHECK-LABEL: func.func @slice_kept
//       CHECK:   coda.slice %{{.+}} {offset = 0 : i64, size = 16 : i64}
func.func @slice_kept(%x: tensor<?x32xbf16>) -> tensor<?x16xbf16> {
  %y = coda.slice %x {offset = 0 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}
