// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['op'], k['rows'], k['rows_per_tile'], k['block'], k['tiles_n'], [list(a.values())[0] for a in k['arguments']]) for k in json.load(open(sys.argv[1]))['functions'][0]['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// The backward's LayerNorms as row kernels, laid out as the RMSNorm ones
// (norm-kernels.mlir). The recomputed LayerNorm: the row's mean summed
// across the warp first, then its centred squares, then x̂ · gamma + beta.
// CHECK-LABEL: func.func @layer_norms
//       CHECK:   coda.layer_norm {{.*}}coda.kernel = @coda_kernels::@layer_norms_rows0, coda.launch = {block = 128 : i64, dependent_launch = true, persistent = false, rows_per_tile = 4 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
// The gradient: 1056 one-warp CTAs; dgamma's and dbeta's sums carried in
// registers and stored as one partial row each.
//       CHECK:   coda.layer_norm_grad_partials {{.*}}coda.kernel = @coda_kernels::@layer_norms_rows1, coda.launch = {block = 32 : i64, dependent_launch = true, persistent = false, rows_per_tile = 1 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK:   coda.sum_rows {{.*}}coda.kernel = @coda_kernels::@layer_norms_rows2
//       CHECK:   coda.sum_rows {{.*}}coda.kernel = @coda_kernels::@layer_norms_rows3
//       CHECK: gpu.func @layer_norms_rows0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:   llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
//       CHECK:   gpu.shuffle  xor
//       CHECK:   arith.divf
//       CHECK:   arith.subf
//       CHECK:   gpu.shuffle  xor
//       CHECK:   math.rsqrt
//       CHECK:   arith.addf
//       CHECK:   llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr
//       CHECK: gpu.func @layer_norms_rows1(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1056
//       CHECK:     math.rsqrt
//       CHECK:     llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr
//       CHECK:     scf.yield
//       CHECK:   llvm.store {{.*}} {alignment = 32 : i64} : vector<8xf32>, !llvm.ptr
//       CHECK:   llvm.store {{.*}} {alignment = 32 : i64} : vector<8xf32>, !llvm.ptr
// The partials' grid is their rows; the gradient's rows argument is M.
// PLAN: layer_norms_rows0 coda.layer_norm -1 4 128 1 [-1, 'arg0', 'arg1', 'arg2', 't0']
// PLAN: layer_norms_rows1 coda.layer_norm_grad_partials 1056 1 32 1 [-1, 'arg0', 'arg1', 'arg3', 'arg4', 't1', 't2', 't3']
// PLAN: layer_norms_rows2 coda.sum_rows 1056 1056 1024 24 [1056, 't1', 't4']
// PLAN: layer_norms_rows3 coda.sum_rows 1056 1056 1024 24 [1056, 't2', 't5']
func.func @layer_norms(%x: tensor<?x768xbf16>, %g: tensor<768xbf16>, %b: tensor<768xbf16>, %dy: tensor<?x768xbf16>, %r: tensor<?x768xbf16>)
    -> (tensor<?x768xbf16>, tensor<?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) {
  %h = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<?x768xbf16>
  %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x768xbf16>, tensor<768xbf16>, tensor<?x768xbf16>, tensor<?x768xbf16>) -> (tensor<1056x768xf32>, tensor<1056x768xf32>, tensor<?x768xbf16>)
  %dg = coda.sum_rows %pg : (tensor<1056x768xf32>) -> tensor<768xbf16>
  %db = coda.sum_rows %pb : (tensor<1056x768xf32>) -> tensor<768xbf16>
  return %h, %dx, %dg, %db : tensor<?x768xbf16>, tensor<?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>
}
