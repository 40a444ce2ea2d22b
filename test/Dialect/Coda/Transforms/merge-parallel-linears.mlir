// RUN: coda-opt %s --split-input-file --coda-merge-parallel-linears | FileCheck %s
// RUN: coda-opt %s --split-input-file --coda-merge-parallel-linears="max-weights=2" | FileCheck %s --check-prefix=MAX2

// Gate and up on one input share one GEMM over both weights; each result is a slice.
// CHECK-LABEL: func.func @gate_up
//  CHECK-SAME:   (%[[H:.+]]: tensor<?x64xbf16>, %[[WG:.+]]: tensor<32x64xbf16>, %[[WU:.+]]: tensor<32x64xbf16>)
//       CHECK:   %[[G:.+]] = coda.gemm %[[H]], [%[[WG]], %[[WU]]] : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<?x64xbf16> {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x64xf32>):
//       CHECK:     coda.yield %[[ACC]]
//       CHECK:   %[[GATE:.+]] = coda.slice %[[G]] {offset = 0 : i64, size = 32 : i64}
//       CHECK:   %[[UP:.+]] = coda.slice %[[G]] {offset = 32 : i64, size = 32 : i64}
//       CHECK:   coda.swiglu %[[GATE]], %[[UP]]
//   CHECK-NOT:   coda.linear
func.func @gate_up(%h: tensor<?x64xbf16>, %wg: tensor<32x64xbf16>, %wu: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %g = coda.linear %h, %wg : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  %u = coda.linear %h, %wu : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  %a = coda.swiglu %g, %u : (tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %a : tensor<?x32xbf16>
}

// -----

// Biases are added to their own column ranges in the epilogue; a linear
// without bias contributes its plain slice.
// CHECK-LABEL: func.func @q_k_v_bias
//       CHECK:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}, %{{.+}}] inputs(%{{.+}}, %{{.+}}) : {{.*}} -> tensor<?x48xf32> {
//       CHECK:   ^bb0(%[[ACC:.+]]: tensor<?x48xf32>, %[[BQ:.+]]: tensor<16xf32>, %[[BV:.+]]: tensor<16xf32>):
//       CHECK:     %[[Q:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 16 : i64}
//       CHECK:     %[[QB:.+]] = coda.add %[[Q]], %[[BQ]]
//       CHECK:     %[[K:.+]] = coda.slice %[[ACC]] {offset = 16 : i64, size = 16 : i64}
//       CHECK:     %[[V:.+]] = coda.slice %[[ACC]] {offset = 32 : i64, size = 16 : i64}
//       CHECK:     %[[VB:.+]] = coda.add %[[V]], %[[BV]]
//       CHECK:     %[[ALL:.+]] = coda.concat %[[QB]], %[[K]], %[[VB]]
//       CHECK:     coda.yield %[[ALL]]
func.func @q_k_v_bias(%x: tensor<?x32xf32>, %wq: tensor<16x32xf32>, %bq: tensor<16xf32>, %wk: tensor<16x32xf32>, %wv: tensor<16x32xf32>, %bv: tensor<16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %q = coda.linear %x, %wq, %bq : (tensor<?x32xf32>, tensor<16x32xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %k = coda.linear %x, %wk : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  %v = coda.linear %x, %wv, %bv : (tensor<?x32xf32>, tensor<16x32xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  return %q, %k, %v : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// max-weights caps the group: the third linear stays on its own.
// MAX2-LABEL: func.func @capped
//       MAX2:   coda.gemm %{{.+}}, [%{{.+}}, %{{.+}}] :
//       MAX2:   coda.linear
func.func @capped(%x: tensor<?x32xf32>, %w0: tensor<16x32xf32>, %w1: tensor<16x32xf32>, %w2: tensor<16x32xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %a = coda.linear %x, %w0 : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  %b = coda.linear %x, %w1 : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  %c = coda.linear %x, %w2 : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  return %a, %b, %c : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// Refused: linears with different result element types are separate GEMMs.
// CHECK-LABEL: func.func @different_result_types
//   CHECK-NOT:   coda.gemm
//       CHECK:   coda.linear
//       CHECK:   coda.linear
func.func @different_result_types(%x: tensor<?x32xbf16>, %w0: tensor<16x32xbf16>, %w1: tensor<16x32xbf16>) -> (tensor<?x16xbf16>, tensor<?x16xf32>) {
  %a = coda.linear %x, %w0 : (tensor<?x32xbf16>, tensor<16x32xbf16>) -> tensor<?x16xbf16>
  %b = coda.linear %x, %w1 : (tensor<?x32xbf16>, tensor<16x32xbf16>) -> tensor<?x16xf32>
  return %a, %b : tensor<?x16xbf16>, tensor<?x16xf32>
}

// -----

// Refused: a single linear on its input is left as it is.
// CHECK-LABEL: func.func @single
//   CHECK-NOT:   coda.gemm
//       CHECK:   coda.linear
func.func @single(%x: tensor<?x32xbf16>, %w: tensor<16x32xbf16>) -> tensor<?x16xbf16> {
  %a = coda.linear %x, %w : (tensor<?x32xbf16>, tensor<16x32xbf16>) -> tensor<?x16xbf16>
  return %a : tensor<?x16xbf16>
}

// -----

// Refused: a weight computed after the first linear cannot join its GEMM.
// CHECK-LABEL: func.func @weight_defined_later
//   CHECK-NOT:   coda.gemm
func.func @weight_defined_later(%x: tensor<?x32xf32>, %w0: tensor<16x32xf32>, %w1: tensor<16x32xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %a = coda.linear %x, %w0 : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  %w = coda.scale %w1 {factor = 2.0 : f32} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %b = coda.linear %x, %w : (tensor<?x32xf32>, tensor<16x32xf32>) -> tensor<?x16xf32>
  return %a, %b : tensor<?x16xf32>, tensor<?x16xf32>
}
