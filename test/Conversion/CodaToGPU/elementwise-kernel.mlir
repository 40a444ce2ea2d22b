// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['rows'], k['rows_per_tile'], k['block'], k['tiles_n'], k['persistent'], [list(a)[0] for a in k['arguments']]) for k in json.load(open(sys.argv[1]))['functions'][0]['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// Elementwise maps that no GEMM takes run as kernels of their own: CTA r
// computes row r, its 128 threads striding over the columns 16 bytes at a
// time (here 4 f32 for the 200-column rank-one update; one element for the
// 2050-column bf16 sum, whose rows are no whole number of 16-byte groups);
// operands are read by position ([M, N]), by column ([N]) or by row
// ([M, 1], one element for all lanes), widened to f32, and the result
// rounded once.
// CHECK-LABEL: func.func @maps
//       CHECK:   coda.add {{.*}}coda.kernel = @coda_kernels::@maps_map0, coda.launch = {block = 128 : i64, persistent = false, rows_per_tile = 1 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK:   coda.add_outer {{.*}}coda.kernel = @coda_kernels::@maps_map1
//       CHECK: gpu.func @maps_map0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:   gpu.block_id x
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %c2050{{.*}} step %c128
//       CHECK:     llvm.load {{.*}} -> bf16
//       CHECK:     arith.extf
//       CHECK:     arith.addf
//       CHECK:     arith.truncf
//       CHECK:     llvm.store {{.*}} : bf16, !llvm.ptr
//       CHECK: gpu.func @maps_map1(
//       CHECK:   scf.for
//       CHECK:     llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       CHECK:     llvm.load {{.*}} : !llvm.ptr -> f32
//       CHECK:     llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//       CHECK:     llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// PLAN: maps_map0 -1 1 128 1 False ['rows', 'buffer', 'buffer', 'buffer']
// PLAN: maps_map1 -1 1 128 1 False ['rows', 'buffer', 'buffer', 'buffer', 'buffer']
func.func @maps(%a: tensor<?x2050xbf16>, %b: tensor<?x2050xbf16>,
                %x: tensor<?x200xf32>, %col: tensor<?x1xf32>, %v: tensor<200xf32>)
    -> (tensor<?x2050xbf16>, tensor<?x200xf32>) {
  %s = coda.add %a, %b : (tensor<?x2050xbf16>, tensor<?x2050xbf16>) -> tensor<?x2050xbf16>
  %o = coda.add_outer %x, %col, %v : (tensor<?x200xf32>, tensor<?x1xf32>, tensor<200xf32>) -> tensor<?x200xf32>
  return %s, %o : tensor<?x2050xbf16>, tensor<?x200xf32>
}
