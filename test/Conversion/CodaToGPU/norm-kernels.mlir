// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['op'], k['rows'], k['rows_per_tile'], k['block'], k['tiles_n'], [list(a.values())[0] for a in k['arguments']]) for k in json.load(open(sys.argv[1]))['functions'][0]['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// The backward's norms as row kernels. A recomputed RMSNorm: a warp per
// row, four rows per CTA, each lane 8 bf16 at a time from columns
// 8 (lane + 32 i), the squares summed across the warp.
// CHECK-LABEL: func.func @norms
//       CHECK:   coda.rms_norm {{.*}}coda.kernel = @coda_kernels::@norms_rows0, coda.launch = {block = 128 : i64, dependent_launch = true, persistent = false, rows_per_tile = 4 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
// The gradient: 1056 one-warp CTAs, each over rows b, b + 1056, ..., its
// dgamma sums carried in registers and stored as one partial row.
//       CHECK:   coda.rms_norm_grad_partials {{.*}}coda.kernel = @coda_kernels::@norms_rows1, coda.launch = {block = 32 : i64, dependent_launch = true, persistent = false, rows_per_tile = 1 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
// The partials' sum: a CTA of 8 warps per 32 columns.
//       CHECK:   coda.sum_rows {{.*}}coda.kernel = @coda_kernels::@norms_rows2, coda.launch = {block = 1024 : i64, dependent_launch = true, persistent = false, rows_per_tile = 1056 : i64, shared_bytes = 0 : i64, tiles_n = 16 : i64}
//       CHECK: gpu.func @norms_rows0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:   llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
//       CHECK:   gpu.shuffle  xor
//       CHECK:   math.rsqrt
//       CHECK:   llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr
//       CHECK: gpu.func @norms_rows1(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1056
//       CHECK:     math.rsqrt
//       CHECK:     llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr
//       CHECK:     scf.yield
//       CHECK:   llvm.store {{.*}} {alignment = 32 : i64} : vector<8xf32>, !llvm.ptr
//       CHECK: gpu.func @norms_rows2(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) workgroup(%{{.+}} : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>}
//       CHECK:   gpu.block_id  y
//       CHECK:   scf.for
//       CHECK:   gpu.barrier
//       CHECK:   llvm.store {{.*}} : bf16, !llvm.ptr
// The partials' grid is their rows; the gradient's rows argument is M.
// PLAN: norms_rows0 coda.rms_norm -1 4 128 1 [-1, 'arg0', 'arg1', 't0']
// PLAN: norms_rows1 coda.rms_norm_grad_partials 1056 1 32 1 [-1, 'arg0', 'arg1', 'arg2', 'arg3', 't1', 't2']
// PLAN: norms_rows2 coda.sum_rows 1056 1056 1024 16 [1056, 't1', 't3']
func.func @norms(%x: tensor<?x512xbf16>, %g: tensor<512xbf16>, %dy: tensor<?x512xbf16>, %r: tensor<?x512xbf16>)
    -> (tensor<?x512xbf16>, tensor<?x512xbf16>, tensor<512xbf16>) {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x512xbf16>, tensor<512xbf16>) -> tensor<?x512xbf16>
  %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %r {epsilon = 1.0e-05 : f32} : (tensor<?x512xbf16>, tensor<512xbf16>, tensor<?x512xbf16>, tensor<?x512xbf16>) -> (tensor<1056x512xf32>, tensor<?x512xbf16>)
  %dg = coda.sum_rows %p : (tensor<1056x512xf32>) -> tensor<512xbf16>
  return %h, %dx, %dg : tensor<?x512xbf16>, tensor<?x512xbf16>, tensor<512xbf16>
}

// A row of 64 bf16 columns takes narrower groups: each lane 2 columns (4
// bytes) at a time, the widest access whose groups tile the row over the
// warp's 32 lanes.
// (Its kernel follows the first function's in the kernel module.)
//       CHECK: gpu.func @narrow_norm_rows0(
//       CHECK:   llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<2xbf16>
//       CHECK:   math.rsqrt
//       CHECK:   llvm.store {{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr
func.func @narrow_norm(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %h : tensor<?x64xbf16>
}
