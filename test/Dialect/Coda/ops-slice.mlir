// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A slice names its column range.
// CHECK-LABEL: func.func @slice
//       CHECK:   coda.slice %{{.+}} {offset = 8 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
func.func @slice(%x: tensor<?x32xbf16>) -> tensor<?x16xbf16> {
  %y = coda.slice %x {offset = 8 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}
