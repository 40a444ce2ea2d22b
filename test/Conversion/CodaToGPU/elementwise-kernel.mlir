// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s
// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s --check-prefix=COLUMNS
// RUN: coda-opt %s --convert-coda-to-gpu | FileCheck %s --check-prefix=ACTIVATIONS
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['rows'], k['rows_per_tile'], k['block'], k['tiles_n'], k['persistent'], k['dependent_launch'], [list(a)[0] for a in k['arguments']]) for f in json.load(open(sys.argv[1]))['functions'] for k in f['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// Elementwise maps that no GEMM takes run as kernels of their own: CTA r
// computes row r, its 128 threads striding over the columns 16 bytes at a
// time (here 4 f32 for the 200-column rank-one update; one element for the
// 2050-column bf16 sum, whose rows are no whole number of 16-byte groups);
// operands are read by position ([M, N]), by column ([N]) or by row
// ([M, 1], one element for all lanes), widened to f32, and the result
// rounded once. Each kernel first waits for the grids before it (the
// plan's dependent_launch); the next grid launches as its CTAs exit.
// CHECK-LABEL: func.func @maps
//       CHECK:   coda.add {{.*}}coda.kernel = @coda_kernels::@maps_map0, coda.launch = {block = 128 : i64, dependent_launch = true, persistent = false, rows_per_tile = 1 : i64, shared_bytes = 0 : i64, tiles_n = 1 : i64}
//       CHECK:   coda.add_outer {{.*}}coda.kernel = @coda_kernels::@maps_map1
//       CHECK: gpu.func @maps_map0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//  CHECK-NEXT:   nvvm.griddepcontrol wait
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
// PLAN: maps_map0 -1 1 128 1 False True ['rows', 'buffer', 'buffer', 'buffer']
// PLAN: maps_map1 -1 1 128 1 False True ['rows', 'buffer', 'buffer', 'buffer', 'buffer']
func.func @maps(%a: tensor<?x2050xbf16>, %b: tensor<?x2050xbf16>,
                %x: tensor<?x200xf32>, %col: tensor<?x1xf32>, %v: tensor<200xf32>)
    -> (tensor<?x2050xbf16>, tensor<?x200xf32>) {
  %s = coda.add %a, %b : (tensor<?x2050xbf16>, tensor<?x2050xbf16>) -> tensor<?x2050xbf16>
  %o = coda.add_outer %x, %col, %v : (tensor<?x200xf32>, tensor<?x1xf32>, tensor<200xf32>) -> tensor<?x200xf32>
  return %s, %o : tensor<?x2050xbf16>, tensor<?x200xf32>
}

// The column maps around a cotangent's inverse RoPE. A slice reads its
// source at the shifted column; a concat has a loop per piece, each reading
// its input at the piece's columns; a "half" RoPE reads each group, its
// partner half a head away (ahead in a head's first half, behind in the
// second, negated there) and the row's tables, 16 bytes of the widest
// element (f32 tables: 4 lanes) at a time.
// COLUMNS-LABEL: func.func @columns
//       COLUMNS:   coda.slice {{.*}}coda.kernel = @coda_kernels::@columns_map0
//       COLUMNS:   coda.rope {{.*}}coda.kernel = @coda_kernels::@columns_map1
//       COLUMNS:   coda.slice {{.*}}coda.kernel = @coda_kernels::@columns_map2
//       COLUMNS:   coda.concat {{.*}}coda.kernel = @coda_kernels::@columns_map3
//       COLUMNS: gpu.func @columns_map1(
//       COLUMNS:   arith.remui %{{.+}}, %c64
//       COLUMNS:   arith.cmpi ult, %{{.+}}, %c32
//       COLUMNS:   arith.select
//       COLUMNS:   llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<4xbf16>
//       COLUMNS:   llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<4xbf16>
//       COLUMNS:   llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       COLUMNS:   llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
//       COLUMNS:   arith.negf
//       COLUMNS:   llvm.store {{.*}} {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr
//       COLUMNS: gpu.func @columns_map2(
//       COLUMNS:   arith.addi %{{.+}}, %c256
//       COLUMNS:   llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
//       COLUMNS: gpu.func @columns_map3(
//       COLUMNS:   scf.for %{{.+}} = %{{.+}} to %c256
//       COLUMNS:   scf.for %{{.+}} = %{{.+}} to %c384
// The PTX pipeline gathers the four into one coda.map (coda-form-maps,
// form-maps.mlir): one kernel over x and the tables.
// PLAN: columns_map0 -1 1 128 1 False True ['rows', 'buffer', 'buffer', 'buffer', 'buffer']
// PLAN-NOT: columns_map1
func.func @columns(%x: tensor<?x384xbf16>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>) -> tensor<?x384xbf16> {
  %a = coda.slice %x {offset = 0 : i64, size = 256 : i64} : (tensor<?x384xbf16>) -> tensor<?x256xbf16>
  %r = coda.rope %a, %cos, %sin {head_dim = 64 : i64} : (tensor<?x256xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x256xbf16>
  %b = coda.slice %x {offset = 256 : i64, size = 128 : i64} : (tensor<?x384xbf16>) -> tensor<?x128xbf16>
  %y = coda.concat %r, %b : (tensor<?x256xbf16>, tensor<?x128xbf16>) -> tensor<?x384xbf16>
  return %y : tensor<?x384xbf16>
}

// A row that every thread crosses the same number of times (2048 bf16
// columns: two steps of 128 threads x 8 lanes) is unrolled, both steps'
// loads issued before the first store.
// CHECK-LABEL: gpu.func @unrolled_map0(
//   CHECK-NOT:   scf.for
// CHECK-COUNT-4:   llvm.load {{.*}} -> vector<8xbf16>
//   CHECK-NOT:   llvm.load
// CHECK-COUNT-2:   llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr
//   CHECK-NOT:   llvm.load
//       CHECK:   gpu.return
// PLAN: unrolled_map0 -1 1 128 1 False True ['rows', 'buffer', 'buffer', 'buffer']
func.func @unrolled(%a: tensor<?x2048xbf16>, %b: tensor<?x2048xbf16>) -> tensor<?x2048xbf16> {
  %s = coda.add %a, %b : (tensor<?x2048xbf16>, tensor<?x2048xbf16>) -> tensor<?x2048xbf16>
  return %s : tensor<?x2048xbf16>
}

// Unrolled, 16384 columns would hold 16 steps x 8 values before their
// stores; 17408 (17 x 8 = 136) pass the 128 a thread may hold, so their
// columns stay a loop.
// CHECK-LABEL: gpu.func @unrolled_bound_map0(
//   CHECK-NOT:   scf.for
// CHECK-COUNT-32:  llvm.load {{.*}} -> vector<8xbf16>
//       CHECK:   gpu.return
// CHECK-LABEL: gpu.func @unrolled_bound_map1(
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %c17408{{.*}} step %c1024
//       CHECK:   gpu.return
func.func @unrolled_bound(%a: tensor<?x16384xbf16>, %b: tensor<?x16384xbf16>,
                          %c: tensor<?x17408xbf16>, %d: tensor<?x17408xbf16>)
    -> (tensor<?x16384xbf16>, tensor<?x17408xbf16>) {
  %s = coda.add %a, %b : (tensor<?x16384xbf16>, tensor<?x16384xbf16>) -> tensor<?x16384xbf16>
  %t = coda.add %c, %d : (tensor<?x17408xbf16>, tensor<?x17408xbf16>) -> tensor<?x17408xbf16>
  return %s, %t : tensor<?x16384xbf16>, tensor<?x17408xbf16>
}

// The GPU's transcendentals: tanh by tanh.approx.f32, and SiLU's sigmoid as
// 0.5 + 0.5 · tanh(x / 2) with the same instruction (no exp, no division).
// ACTIVATIONS-LABEL: func.func @activations
//       ACTIVATIONS: gpu.func @activations_map0(
//   ACTIVATIONS-NOT:   math.exp
//   ACTIVATIONS-NOT:   arith.divf
//       ACTIVATIONS:   llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.+}} : (f32) -> f32
//       ACTIVATIONS:   arith.addf
//   ACTIVATIONS-NOT:   math.exp
//   ACTIVATIONS-NOT:   arith.divf
//       ACTIVATIONS: gpu.func @activations_map1(
//       ACTIVATIONS:   llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.+}} : (f32) -> f32
func.func @activations(%x: tensor<?x256xbf16>, %y: tensor<?x256xbf16>) -> (tensor<?x256xbf16>, tensor<?x256xbf16>) {
  %s = coda.silu %x : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %t = coda.tanh %y : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %s, %t : tensor<?x256xbf16>, tensor<?x256xbf16>
}
