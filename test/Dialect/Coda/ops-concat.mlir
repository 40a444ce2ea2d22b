// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Three inputs side by side.
// CHECK-LABEL: func.func @concat
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x16xbf16>, %[[B:.+]]: tensor<?x8xbf16>, %[[C:.+]]: tensor<?x8xbf16>)
//       CHECK:   coda.concat %[[A]], %[[B]], %[[C]] : (tensor<?x16xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x32xbf16>
func.func @concat(%a: tensor<?x16xbf16>, %b: tensor<?x8xbf16>, %c: tensor<?x8xbf16>) -> tensor<?x32xbf16> {
  %y = coda.concat %a, %b, %c : (tensor<?x16xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
