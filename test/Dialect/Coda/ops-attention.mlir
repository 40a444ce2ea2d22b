// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// Grouped-query attention: 4 query heads share 2 key/value heads of 8.
// CHECK-LABEL: func.func @attention
//  CHECK-SAME:   (%[[Q:.+]]: tensor<?x32xbf16>, %[[K:.+]]: tensor<?x16xbf16>, %[[V:.+]]: tensor<?x16xbf16>)
//       CHECK:   coda.attention %[[Q]], %[[K]], %[[V]] {causal = true, head_dim = 8 : i64, num_heads = 4 : i64, num_kv_heads = 2 : i64, seq_len = 16 : i64}
//  CHECK-SAME:     : (tensor<?x32xbf16>, tensor<?x16xbf16>, tensor<?x16xbf16>) -> tensor<?x32xbf16>
func.func @attention(%q: tensor<?x32xbf16>, %k: tensor<?x16xbf16>, %v: tensor<?x16xbf16>) -> tensor<?x32xbf16> {
  %o = coda.attention %q, %k, %v {num_heads = 4 : i64, num_kv_heads = 2 : i64, head_dim = 8 : i64, seq_len = 16 : i64, causal = true} : (tensor<?x32xbf16>, tensor<?x16xbf16>, tensor<?x16xbf16>) -> tensor<?x32xbf16>
  return %o : tensor<?x32xbf16>
}

// -----

// A static row count of whole sequences, not causal.
// CHECK-LABEL: func.func @attention_static
//       CHECK:   coda.attention {{.*}}causal = false{{.*}} : (tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
func.func @attention_static(%q: tensor<32x16xf32>, %k: tensor<32x16xf32>, %v: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %o = coda.attention %q, %k, %v {num_heads = 2 : i64, num_kv_heads = 2 : i64, head_dim = 8 : i64, seq_len = 16 : i64, causal = false} : (tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return %o : tensor<32x16xf32>
}
