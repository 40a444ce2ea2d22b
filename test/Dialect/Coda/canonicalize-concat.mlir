// RUN: coda-opt %s --split-input-file --canonicalize | FileCheck %s

// The slices that partition a value, concatenated in order, are the value.
// CHECK-LABEL: func.func @concat_of_partition
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x48xbf16>)
//   CHECK-NOT:   coda.slice
//   CHECK-NOT:   coda.concat
//       CHECK:   return %[[X]]
func.func @concat_of_partition(%x: tensor<?x48xbf16>) -> tensor<?x48xbf16> {
  %a = coda.slice %x {offset = 0 : i64, size = 32 : i64} : (tensor<?x48xbf16>) -> tensor<?x32xbf16>
  %b = coda.slice %x {offset = 32 : i64, size = 8 : i64} : (tensor<?x48xbf16>) -> tensor<?x8xbf16>
  %c = coda.slice %x {offset = 40 : i64, size = 8 : i64} : (tensor<?x48xbf16>) -> tensor<?x8xbf16>
  %y = coda.concat %a, %b, %c : (tensor<?x32xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x48xbf16>
  return %y : tensor<?x48xbf16>
}

// -----

// Touching slices merge into one; a foreign input stays in its place.
// CHECK-LABEL: func.func @concat_merges_touching_slices
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x48xbf16>, %[[Y:.+]]: tensor<?x8xbf16>)
//       CHECK:   %[[S:.+]] = coda.slice %[[X]] {offset = 8 : i64, size = 24 : i64} : (tensor<?x48xbf16>) -> tensor<?x24xbf16>
//       CHECK:   %[[C:.+]] = coda.concat %[[S]], %[[Y]] : (tensor<?x24xbf16>, tensor<?x8xbf16>) -> tensor<?x32xbf16>
//       CHECK:   return %[[C]]
func.func @concat_merges_touching_slices(%x: tensor<?x48xbf16>, %y: tensor<?x8xbf16>) -> tensor<?x32xbf16> {
  %a = coda.slice %x {offset = 8 : i64, size = 16 : i64} : (tensor<?x48xbf16>) -> tensor<?x16xbf16>
  %b = coda.slice %x {offset = 24 : i64, size = 8 : i64} : (tensor<?x48xbf16>) -> tensor<?x8xbf16>
  %c = coda.concat %a, %b, %y : (tensor<?x16xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x32xbf16>
  return %c : tensor<?x32xbf16>
}

// -----

// Slices out of order, or of different values, are not merged.
// CHECK-LABEL: func.func @concat_kept
//       CHECK:   coda.concat %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x8xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>)
func.func @concat_kept(%x: tensor<?x16xbf16>, %z: tensor<?x16xbf16>) -> tensor<?x24xbf16> {
  %a = coda.slice %x {offset = 8 : i64, size = 8 : i64} : (tensor<?x16xbf16>) -> tensor<?x8xbf16>
  %b = coda.slice %x {offset = 0 : i64, size = 8 : i64} : (tensor<?x16xbf16>) -> tensor<?x8xbf16>
  %c = coda.slice %z {offset = 8 : i64, size = 8 : i64} : (tensor<?x16xbf16>) -> tensor<?x8xbf16>
  %y = coda.concat %a, %b, %c : (tensor<?x8xbf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x24xbf16>
  return %y : tensor<?x24xbf16>
}

// -----

// A concat of one input is that input.
// CHECK-LABEL: func.func @concat_single
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x16xbf16>)
//   CHECK-NOT:   coda.concat
//       CHECK:   return %[[X]]
func.func @concat_single(%x: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %y = coda.concat %x : (tensor<?x16xbf16>) -> tensor<?x16xbf16>
  return %y : tensor<?x16xbf16>
}

// -----

// The canonical block's q|k|v concat keeps its rotated inputs.
// CHECK-LABEL: func.func @concat_rotated
//       CHECK:   coda.rope
//       CHECK:   coda.concat
func.func @concat_rotated(%x: tensor<?x32xbf16>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>) -> tensor<?x32xbf16> {
  %q = coda.slice %x {offset = 0 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
  %v = coda.slice %x {offset = 16 : i64, size = 16 : i64} : (tensor<?x32xbf16>) -> tensor<?x16xbf16>
  %r = coda.rope %q, %cos, %sin {head_dim = 8 : i64} : (tensor<?x16xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x16xbf16>
  %y = coda.concat %r, %v : (tensor<?x16xbf16>, tensor<?x16xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// RoPEs of touching slices with the same tables and head size are one RoPE
// of the joined slice (q and k of a QKV projection); a RoPE with other
// tables stays.
// CHECK-LABEL: func.func @concat_merges_ropes_of_touching_slices
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x384xbf16>, %[[C:.+]]: tensor<?x32xf32>, %[[S:.+]]: tensor<?x32xf32>, %[[C2:.+]]: tensor<?x32xf32>)
//   CHECK-DAG:   %[[QK:.+]] = coda.slice %[[X]] {offset = 0 : i64, size = 256 : i64} : (tensor<?x384xbf16>) -> tensor<?x256xbf16>
//   CHECK-DAG:   %[[R:.+]] = coda.rope %[[QK]], %[[C]], %[[S]] {head_dim = 64 : i64} : (tensor<?x256xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xbf16>
//   CHECK-DAG:   %[[V:.+]] = coda.slice %[[X]] {offset = 256 : i64, size = 64 : i64}
//   CHECK-DAG:   %[[W:.+]] = coda.rope %[[V]], %[[C2]], %[[S]]
//       CHECK:   coda.concat %[[R]], %[[W]] : (tensor<?x256xbf16>, tensor<?x64xbf16>) -> tensor<?x320xbf16>
func.func @concat_merges_ropes_of_touching_slices(%x: tensor<?x384xbf16>, %c: tensor<?x32xf32>, %s: tensor<?x32xf32>, %c2: tensor<?x32xf32>) -> tensor<?x320xbf16> {
  %q = coda.slice %x {offset = 0 : i64, size = 128 : i64} : (tensor<?x384xbf16>) -> tensor<?x128xbf16>
  %k = coda.slice %x {offset = 128 : i64, size = 128 : i64} : (tensor<?x384xbf16>) -> tensor<?x128xbf16>
  %v = coda.slice %x {offset = 256 : i64, size = 64 : i64} : (tensor<?x384xbf16>) -> tensor<?x64xbf16>
  %qr = coda.rope %q, %c, %s {head_dim = 64 : i64, style = "half"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  %kr = coda.rope %k, %c, %s {head_dim = 64 : i64, style = "half"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  %vr = coda.rope %v, %c2, %s {head_dim = 64 : i64, style = "half"} : (tensor<?x64xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x64xbf16>
  %y = coda.concat %qr, %kr, %vr : (tensor<?x128xbf16>, tensor<?x128xbf16>, tensor<?x64xbf16>) -> tensor<?x320xbf16>
  return %y : tensor<?x320xbf16>
}
