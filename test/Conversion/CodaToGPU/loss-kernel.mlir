// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['op'], k['rows'], k['rows_per_tile'], k['block'], [list(a.values())[0] for a in k['arguments']]) for f in json.load(open(sys.argv[1]))['functions'] for k in f['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// A cross-entropy finished from one log-sum-exp and target logit per row:
// one CTA of 1024 threads over all the rows (rows_per_tile covers any M),
// each thread's rows summed, then across the warp and, through shared
// memory, across the warps; the mean divides by the rows counted.
// CHECK-LABEL: func.func @mean
//       CHECK:   coda.cross_entropy_from_partials {{.*}}coda.kernel = @coda_kernels::@mean_loss0, coda.launch = {block = 1024 : i64, dependent_launch = true, persistent = false, rows_per_tile = 2147483647 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK: gpu.func @mean_loss0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) workgroup(%{{.+}} : memref<2x32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>}
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1024
//       CHECK:     llvm.load %{{.+}} : !llvm.ptr -> i64
//       CHECK:     arith.cmpi ne
//       CHECK:   gpu.shuffle  xor
//       CHECK:   gpu.barrier
//       CHECK:   arith.divf
//       CHECK:   llvm.store
// PLAN: mean_loss0 coda.cross_entropy_from_partials -1 2147483647 1024 [-1, 'arg0', 'arg1', 'arg2', 't0']
func.func @mean(%lse: tensor<?x1xf32>, %picked: tensor<?x1xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  %l = coda.cross_entropy_from_partials %lse, %picked, %t : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// "none": each row's loss stored where it is made; nothing is summed.
// CHECK-LABEL: gpu.func @none_loss0
//   CHECK-NOT:   workgroup
//       CHECK:   scf.for
//       CHECK:     llvm.load %{{.+}} : !llvm.ptr -> i32
//       CHECK:     llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   gpu.return
// PLAN: none_loss0 coda.cross_entropy_from_partials -1 2147483647 1024 [-1, 'arg0', 'arg1', 'arg2', 't0']
func.func @none(%lse: tensor<?x1xf32>, %picked: tensor<?x1xf32>, %t: tensor<?xi32>) -> tensor<?xf32> {
  %l = coda.cross_entropy_from_partials %lse, %picked, %t {reduction = "none", ignore_index = 0 : i64} : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %l : tensor<?xf32>
}

// -----

// The rows' weights of a mean cross-entropy's gradient: the same CTA counts
// the rows not ignored (every thread gets the count through shared memory),
// then stores dloss / count, or 0 for an ignored row, per row.
// CHECK-LABEL: func.func @mean_weights
//       CHECK:   coda.cross_entropy_row_weights {{.*}}coda.kernel = @coda_kernels::@mean_weights_loss0, coda.launch = {block = 1024 : i64, dependent_launch = true, persistent = false, rows_per_tile = 2147483647 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK: gpu.func @mean_weights_loss0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) workgroup(%{{.+}} : memref<1x32xf32, #gpu.address_space<workgroup>>)
//       CHECK:   scf.for
//       CHECK:     arith.cmpi ne
//       CHECK:   gpu.barrier
//       CHECK:   arith.divf
//       CHECK:   scf.for
//       CHECK:     arith.select
//       CHECK:     llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// PLAN: mean_weights_loss0 coda.cross_entropy_row_weights -1 2147483647 1024 [-1, 'arg0', 'arg1', 't0']
func.func @mean_weights(%t: tensor<?xi64>, %d: tensor<f32>) -> tensor<?x1xf32> {
  %w = coda.cross_entropy_row_weights %t, %d : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
  return %w : tensor<?x1xf32>
}

// -----

// "none": each row's own cotangent, with no count and nothing shared.
// CHECK-LABEL: gpu.func @none_weights_loss0
//   CHECK-NOT:   workgroup
//       CHECK:   scf.for
//       CHECK:     llvm.load %{{.+}} : !llvm.ptr -> f32
//       CHECK:     llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
//   CHECK-NOT:   gpu.barrier
//       CHECK:   gpu.return
// PLAN: none_weights_loss0 coda.cross_entropy_row_weights -1 2147483647 1024 [-1, 'arg0', 'arg1', 't0']
func.func @none_weights(%t: tensor<?xi64>, %d: tensor<?xf32>) -> tensor<?x1xf32> {
  %w = coda.cross_entropy_row_weights %t, %d {reduction = "none"} : (tensor<?xi64>, tensor<?xf32>) -> tensor<?x1xf32>
  return %w : tensor<?x1xf32>
}
