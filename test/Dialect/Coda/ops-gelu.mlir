// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// The default approximation, "none", is elided when printed.
// CHECK-LABEL: func.func @gelu_exact
//       CHECK:   coda.gelu %{{.+}} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
//   CHECK-NOT:   approximate
func.func @gelu_exact(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.gelu %x {approximate = "none"} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// The tanh approximation is kept.
// CHECK-LABEL: func.func @gelu_tanh
//       CHECK:   coda.gelu %{{.+}} {approximate = "tanh"} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
func.func @gelu_tanh(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.gelu %x {approximate = "tanh"} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}
