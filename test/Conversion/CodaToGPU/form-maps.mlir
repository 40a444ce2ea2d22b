// RUN: coda-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coda-form-maps))' | FileCheck %s
// RUN: coda-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coda-form-maps),convert-coda-to-gpu)' | FileCheck %s --check-prefix=KERNEL

// A backward's inverse RoPE of the QKV cotangent: the negated sine table,
// the slices, the RoPE and the concat read the cotangent and the tables
// once, as one map; nothing in between is stored.
// CHECK-LABEL: func.func @inverse_rope
//  CHECK-SAME:   (%[[D:.+]]: tensor<?x384xbf16>, %[[C:.+]]: tensor<?x32xf32>, %[[S:.+]]: tensor<?x32xf32>)
//       CHECK:   %[[Y:.+]] = coda.map inputs(%[[S]], %[[D]], %[[C]]) : (tensor<?x32xf32>, tensor<?x384xbf16>, tensor<?x32xf32>) -> tensor<?x384xbf16> {
//       CHECK:   ^bb0(%[[SA:.+]]: tensor<?x32xf32>, %[[DA:.+]]: tensor<?x384xf32>, %[[CA:.+]]: tensor<?x32xf32>):
//       CHECK:     %[[NS:.+]] = coda.scale %[[SA]] {factor = -1.000000e+00 : f32} : (tensor<?x32xf32>) -> tensor<?x32xf32>
//       CHECK:     %[[QK:.+]] = coda.slice %[[DA]] {offset = 0 : i64, size = 256 : i64} : (tensor<?x384xf32>) -> tensor<?x256xf32>
//       CHECK:     %[[R:.+]] = coda.rope %[[QK]], %[[CA]], %[[NS]] {head_dim = 64 : i64} : (tensor<?x256xf32>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xf32>
//       CHECK:     %[[V:.+]] = coda.slice %[[DA]] {offset = 256 : i64, size = 128 : i64} : (tensor<?x384xf32>) -> tensor<?x128xf32>
//       CHECK:     %[[CAT:.+]] = coda.concat %[[R]], %[[V]] : (tensor<?x256xf32>, tensor<?x128xf32>) -> tensor<?x384xf32>
//       CHECK:     coda.yield %[[CAT]] : tensor<?x384xf32>
//       CHECK:   return %[[Y]]
// The map's kernel: a loop per concat piece; the RoPE piece reads the
// cotangent at the column and its partner, and the negated table.
// KERNEL-LABEL: func.func @inverse_rope
//       KERNEL:   coda.map {{.*}}coda.kernel = @coda_kernels::@inverse_rope_map0
//       KERNEL: gpu.func @inverse_rope_map0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
//       KERNEL:   scf.for %{{.+}} = %{{.+}} to %c256
//       KERNEL:     vector<4xbf16>
//       KERNEL:     vector<4xbf16>
//       KERNEL:     vector<4xf32>
//       KERNEL:     vector<4xf32>
//       KERNEL:     arith.negf
//       KERNEL:   scf.for %{{.+}} = %{{.+}} to %c384
func.func @inverse_rope(%d: tensor<?x384xbf16>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x384xbf16> {
  %n = coda.scale %sin {factor = -1.0 : f32} : (tensor<?x32xf32>) -> tensor<?x32xf32>
  %qk = coda.slice %d {offset = 0 : i64, size = 256 : i64} : (tensor<?x384xbf16>) -> tensor<?x256xbf16>
  %r = coda.rope %qk, %cos, %n {head_dim = 64 : i64} : (tensor<?x256xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xbf16>
  %v = coda.slice %d {offset = 256 : i64, size = 128 : i64} : (tensor<?x384xbf16>) -> tensor<?x128xbf16>
  %y = coda.concat %r, %v : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<?x384xbf16>
  return %y : tensor<?x384xbf16>
}

// -----

// A value read twice, or also returned, is stored: the sum stays its own
// kernel and each product of it another.
// CHECK-LABEL: func.func @shared
//       CHECK:   %[[S:.+]] = coda.add
//       CHECK:   coda.map inputs(%[[S]], %{{.+}})
//       CHECK:     coda.mul
//       CHECK:     coda.silu
//       CHECK:   coda.mul %[[S]]
//       CHECK:   return
func.func @shared(%a: tensor<?x256xbf16>, %b: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %s = coda.add %a, %b : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %p = coda.mul %s, %b : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %q = coda.silu %p : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %t = coda.mul %s, %s : (tensor<?x256xbf16>, tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %q, %t : tensor<?x256xbf16>, tensor<?x256xbf16>
}

// -----

// A concat only roots a map: a concat feeding another op is stored.
// CHECK-LABEL: func.func @inner_concat
//       CHECK:   %[[C:.+]] = coda.concat
//       CHECK:   coda.silu %[[C]]
func.func @inner_concat(%a: tensor<?x128xbf16>, %b: tensor<?x128xbf16>) -> tensor<?x256xbf16> {
  %c = coda.concat %a, %b : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x256xbf16>
  %s = coda.silu %c : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %s : tensor<?x256xbf16>
}

// -----

// A standalone sum over each row of a product (the z·dz identity's Σ r · dr)
// is a row-sum map: the product is never stored, and its kernel is a warp
// per row (8 rows a CTA) that adds its lanes' sums across the warp and
// stores one f32 per row.
// CHECK-LABEL: func.func @row_dot
//  CHECK-SAME:   (%[[R:.+]]: tensor<?x384xbf16>, %[[D:.+]]: tensor<?x384xbf16>)
//       CHECK:   %[[S:.+]] = coda.map inputs(%[[R]], %[[D]]) {row_sum} : (tensor<?x384xbf16>, tensor<?x384xbf16>) -> tensor<?x1xf32> {
//       CHECK:   ^bb0(%[[RA:.+]]: tensor<?x384xf32>, %[[DA:.+]]: tensor<?x384xf32>):
//       CHECK:     %[[P:.+]] = coda.mul %[[RA]], %[[DA]] : (tensor<?x384xf32>, tensor<?x384xf32>) -> tensor<?x384xf32>
//       CHECK:     coda.yield %[[P]] : tensor<?x384xf32>
//   CHECK-NOT:   coda.partial_reduce
//   CHECK-NOT:   coda.reduce_partials
//       CHECK:   return %[[S]]
// KERNEL-LABEL: func.func @row_dot
//       KERNEL:   coda.map {{.*}}coda.kernel = @coda_kernels::@row_dot_map0, coda.launch = {block = 256 : i64, dependent_launch = true, persistent = false, rows_per_tile = 8 : i64
//       KERNEL: gpu.func @row_dot_map0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
//       KERNEL:   scf.for %{{.+}} = %{{.+}} to %c384 step %c256
//       KERNEL:     vector<8xbf16>
//       KERNEL:     vector<8xbf16>
//       KERNEL:   gpu.shuffle  xor %{{.+}}, %c16_i32
//       KERNEL:   gpu.shuffle  xor %{{.+}}, %c1_i32
//       KERNEL:   llvm.store %{{.+}} : f32, !llvm.ptr
func.func @row_dot(%r: tensor<?x384xbf16>, %d: tensor<?x384xbf16>) -> tensor<?x1xf32> {
  %p = coda.mul %r, %d : (tensor<?x384xbf16>, tensor<?x384xbf16>) -> tensor<?x384xbf16>
  %s = coda.partial_reduce %p : (tensor<?x384xbf16>) -> tensor<?x?xf32>
  %t = coda.reduce_partials %s : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %t : tensor<?x1xf32>
}

// -----

// A row sum of an input itself: the map yields its argument.
// CHECK-LABEL: func.func @row_sum_of_input
//       CHECK:   coda.map inputs(%{{.+}}) {row_sum} : (tensor<?x96xf32>) -> tensor<?x1xf32> {
//       CHECK:   ^bb0(%[[A:.+]]: tensor<?x96xf32>):
//       CHECK:     coda.yield %[[A]] : tensor<?x96xf32>
func.func @row_sum_of_input(%x: tensor<?x96xf32>) -> tensor<?x1xf32> {
  %s = coda.partial_reduce %x : (tensor<?x96xf32>) -> tensor<?x?xf32>
  %t = coda.reduce_partials %s : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %t : tensor<?x1xf32>
}

