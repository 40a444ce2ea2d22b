// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; f = json.load(open(sys.argv[1]))['functions'][0]; [print(b['name'], b['shape']) for b in f['buffers'] if b['role'] != 'argument']; [print(k['name'], k['op'], k['rows'], k['rows_per_tile'], [a['rows'] for a in k['arguments'] if 'rows' in a]) for k in f['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// The RMSNorm gradient in the epilogue of the dgrad GEMM that makes dy
// (N = 200 and 77 rows are no tile multiples): dgamma's per-16-row sums are
// a warp's rows of a slab, the thread's two rows added and then the eight
// lanes that share columns summed by a reduce-scatter: at xor 16, 8 and 4
// a lane keeps the upper half of its sums where its lane has that bit, the
// lower half elsewhere, and adds the half its partner gives up; the first
// step as soon as both of its column pairs are summed. Each lane stores its
// two column pairs of f32.
// CHECK-LABEL: func.func @norm_gradient
//       CHECK:   coda.norm_statistics
//       CHECK:   coda.gemm
//       CHECK:   coda.sum_rows {{.*}}rows_per_tile = 2147483647 : i64
//       CHECK: gpu.func @norm_gradient_gemm0
//       CHECK:   %[[UPPER_ROW:.+]] = arith.select %{{.+}}, %{{.+}}, %cst : f32
//       CHECK:   %[[LOWER_ROW:.+]] = arith.select %{{.+}}, %{{.+}}, %cst : f32
//       CHECK:   arith.addf %[[UPPER_ROW]], %[[LOWER_ROW]] : f32
//       CHECK:   %[[BIT16:.+]] = arith.andi %{{.+}}, %c16_i32 : i32
//       CHECK:   %[[KEEPS16:.+]] = arith.cmpi ne, %[[BIT16]], %c0_i32{{.*}} : i32
//       CHECK:   %[[GIVEN16:.+]] = arith.select %[[KEEPS16]], %[[LOW:[^,]+]], %[[HIGH:[^ ]+]] : f32
//       CHECK:   %[[KEPT16:.+]] = arith.select %[[KEEPS16]], %[[HIGH]], %[[LOW]] : f32
//       CHECK:   %[[FROM16:.+]], %{{.+}} = gpu.shuffle  xor %[[GIVEN16]], %c16_i32{{.*}}, %c32_i32{{.*}} : f32
//       CHECK:   arith.addf %[[KEPT16]], %[[FROM16]] : f32
//   CHECK-NOT:   gpu.shuffle  xor %{{.+}}, %c8_i32
//   CHECK-COUNT-15:   gpu.shuffle  xor %{{.+}}, %c16_i32{{.*}}, %c32_i32{{.*}} : f32
//   CHECK-COUNT-8:   gpu.shuffle  xor %{{.+}}, %c8_i32{{.*}}, %c32_i32{{.*}} : f32
//   CHECK-COUNT-4:   gpu.shuffle  xor %{{.+}}, %c4_i32{{.*}}, %c32_i32{{.*}} : f32
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   scf.if
//       CHECK:     llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr
//       CHECK:     llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr
// The sums have ceil(M / 16) rows (-16 in the plan), the GEMM's grid the
// M rows of its tile result, and the sum over the blocks reads -16 rows.
// PLAN: t{{[0-9]+}} [-1, 1]
// PLAN: t{{[0-9]+}} [-16, 200]
// PLAN: t{{[0-9]+}} [-1, 200]
// PLAN: t{{[0-9]+}} [200]
// PLAN: norm_gradient_norm0 coda.norm_statistics -1
// PLAN: norm_gradient_gemm0 coda.gemm -1 256 [-1]
// PLAN: norm_gradient_rows0 coda.sum_rows -16 2147483647 [-16]
func.func @norm_gradient(%x: tensor<?x200xbf16>, %g: tensor<200xbf16>, %dz: tensor<?x136xbf16>, %w: tensor<136x200xbf16>, %s: tensor<?x1xf32>, %res: tensor<?x200xbf16>) -> (tensor<?x200xbf16>, tensor<200xbf16>) {
  %dh = coda.matmul %dz, %w : (tensor<?x136xbf16>, tensor<136x200xbf16>) -> tensor<?x200xbf16>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dh row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x200xbf16>, tensor<200xbf16>, tensor<?x200xbf16>, tensor<?x1xf32>) -> (tensor<?x200xbf16>, tensor<200xbf16>)
  %total = coda.add %res, %dx : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  return %total, %dg : tensor<?x200xbf16>, tensor<200xbf16>
}
