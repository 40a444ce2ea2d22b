// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// SwiGLU takes the gate first, then the up projection.
// CHECK-LABEL: func.func @swiglu
//  CHECK-SAME:   (%[[G:.+]]: tensor<?x32xbf16>, %[[U:.+]]: tensor<?x32xbf16>)
//       CHECK:   coda.swiglu %[[G]], %[[U]] : (tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16>
func.func @swiglu(%g: tensor<?x32xbf16>, %u: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.swiglu %g, %u : (tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
