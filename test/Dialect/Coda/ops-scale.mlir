// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// The factor is an f32 attribute.
// CHECK-LABEL: func.func @scale
//       CHECK:   coda.scale %{{.+}} {factor = 1.250000e-01 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
func.func @scale(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.scale %x {factor = 0.125 : f32} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}
