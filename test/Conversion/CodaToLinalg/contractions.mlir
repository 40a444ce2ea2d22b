// RUN: coda-opt %s --split-input-file --convert-coda-to-linalg | FileCheck %s

// A linear is a reduction over K with the weight read as [N, K], then the bias.
// CHECK-DAG: #[[X:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @linear
//       CHECK:   linalg.generic {indexing_maps = [#[[X]], #[[W]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
//       CHECK:     arith.mulf {{.*}} : f32
//       CHECK:   linalg.generic
//       CHECK:     arith.addf
//       CHECK:     arith.truncf {{.*}} : f32 to bf16
func.func @linear(%x: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// Attention splits rows into sequences and heads, reads key/value head
// h floordiv (heads / kv heads), and merges the heads back.
// CHECK-LABEL: func.func @attention
//       CHECK:   tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2, 3]] output_shape [%{{.+}}, 8, 4, 8] : tensor<?x32xf32> into tensor<?x8x4x8xf32>
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
//       CHECK:   tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2, 3]] : tensor<?x8x4x8xf32> into tensor<?x32xf32>
func.func @attention(%q: tensor<?x32xf32>, %k: tensor<?x16xf32>, %v: tensor<?x16xf32>) -> tensor<?x32xf32> {
  %o = coda.attention %q, %k, %v {num_heads = 4 : i64, num_kv_heads = 2 : i64, head_dim = 8 : i64, seq_len = 8 : i64, causal = true} : (tensor<?x32xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x32xf32>
  return %o : tensor<?x32xf32>
}
