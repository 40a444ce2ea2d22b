// RUN: coda-opt %s --split-input-file --convert-coda-to-linalg | FileCheck %s
// RUN: coda-opt %s --split-input-file --convert-coda-to-linalg="compute-in-f64" | FileCheck %s --check-prefix=F64

// A bias add broadcasts the vector over rows; bf16 values are widened to f32,
// added, and rounded once.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_bias
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x16xbf16>, %[[B:.+]]: tensor<16xbf16>) -> tensor<?x16xbf16>
//       CHECK:   %[[C0:.+]] = arith.constant 0 : index
//       CHECK:   %[[M:.+]] = tensor.dim %[[A]], %[[C0]]
//       CHECK:   %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x16xbf16>
//       CHECK:   linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[A]], %[[B]] : tensor<?x16xbf16>, tensor<16xbf16>) outs(%[[E]] : tensor<?x16xbf16>)
//       CHECK:     arith.extf {{.*}} : bf16 to f32
//       CHECK:     arith.extf {{.*}} : bf16 to f32
//       CHECK:     arith.addf {{.*}} : f32
//       CHECK:     arith.truncf {{.*}} : f32 to bf16
//   CHECK-NOT:   coda.add
// F64-LABEL: func.func @add_bias
//  F64-SAME:   (%{{.+}}: tensor<?x16xf64>, %{{.+}}: tensor<16xf64>) -> tensor<?x16xf64>
//   F64-NOT:   arith.truncf
//       F64:   arith.addf {{.*}} : f64
func.func @add_bias(%a: tensor<?x16xbf16>, %b: tensor<16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.add %a, %b : (tensor<?x16xbf16>, tensor<16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// A per-row column [M, 1] broadcasts over the columns.
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @mul_rows
//       CHECK:   linalg.generic {indexing_maps = [#{{.+}}, #[[ROW]], #{{.+}}]
//       CHECK:     arith.mulf
func.func @mul_rows(%a: tensor<?x16xf32>, %r: tensor<?x1xf32>) -> tensor<?x16xf32> {
  %y = coda.mul %a, %r : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// SiLU is x / (1 + exp(-x)) computed as x * sigmoid(x); GELU (none) uses erf.
// CHECK-LABEL: func.func @activations
//       CHECK:   linalg.generic
//       CHECK:     arith.negf
//       CHECK:     math.exp
//       CHECK:     arith.divf
//       CHECK:     arith.mulf
//       CHECK:   linalg.generic
//       CHECK:     math.erf
func.func @activations(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %a = coda.silu %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %b = coda.gelu %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %a, %b : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// RoPE reads each element's partner and angle by index.
// CHECK-LABEL: func.func @rope
//       CHECK:   linalg.generic
//       CHECK:     linalg.index 0
//       CHECK:     linalg.index 1
//       CHECK:     arith.remui
//       CHECK:     tensor.extract
//       CHECK:     arith.select
func.func @rope(%x: tensor<?x16xf32>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>) -> tensor<?x16xf32> {
  %y = coda.rope %x, %cos, %sin {head_dim = 8 : i64} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// Slices are extract_slice; concats insert each input at its column offset.
// CHECK-LABEL: func.func @slice_concat
//       CHECK:   tensor.extract_slice %{{.+}}[0, 8] [%{{.+}}, 8] [1, 1]
//       CHECK:   tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [%{{.+}}, 8] [1, 1]
//       CHECK:   tensor.insert_slice %{{.+}} into %{{.+}}[0, 8] [%{{.+}}, 16] [1, 1]
func.func @slice_concat(%x: tensor<?x16xf32>) -> tensor<?x24xf32> {
  %s = coda.slice %x {offset = 8 : i64, size = 8 : i64} : (tensor<?x16xf32>) -> tensor<?x8xf32>
  %c = coda.concat %s, %x : (tensor<?x8xf32>, tensor<?x16xf32>) -> tensor<?x24xf32>
  return %c : tensor<?x24xf32>
}

// -----

// Tensor casts left by coda-inline-epilogues become elementwise generics, or
// vanish in f64.
// CHECK-LABEL: func.func @casts
//       CHECK:   linalg.generic
//       CHECK:     arith.extf {{.*}} : bf16 to f32
// F64-LABEL: func.func @casts
//   F64-NOT:   linalg.generic
//       F64:   return %{{.+}} : tensor<?x16xf64>
func.func @casts(%x: tensor<?x16xbf16>) -> tensor<?x16xf32> {
  %y = arith.extf %x : tensor<?x16xbf16> to tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
