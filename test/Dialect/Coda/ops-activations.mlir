// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Every unary activation round-trips on every element type.
// CHECK-LABEL: func.func @activations
//       CHECK:   coda.silu %{{.+}} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
//       CHECK:   coda.relu %{{.+}} : (tensor<?x16xf16>) -> tensor<?x16xf16>
//       CHECK:   coda.sigmoid %{{.+}} : (tensor<?x16xf32>) -> tensor<?x16xf32>
//       CHECK:   coda.tanh %{{.+}} : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
func.func @activations(%a: tensor<?x16xbf16>, %b: tensor<?x16xf16>, %c: tensor<?x16xf32>)
    -> (tensor<?x16xbf16>, tensor<?x16xf16>, tensor<?x16xf32>, tensor<?x16xbf16>) {
  %0 = coda.silu %a : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  %1 = coda.relu %b : (tensor<?x16xf16>) -> tensor<?x16xf16>
  %2 = coda.sigmoid %c : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %3 = coda.tanh %a : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %0, %1, %2, %3 : tensor<?x16xbf16>, tensor<?x16xf16>, tensor<?x16xf32>, tensor<?x16xbf16>
}
