// RUN: coda-opt %s --split-input-file --coda-expand-strided-copies | FileCheck %s
// RUN: coda-opt %S/../../../examples/llama3-1b-block.mlir --coda-cpu-pipeline | FileCheck %s --check-prefix=BLOCK

// A copy into a column range of a wider buffer (a concat's piece) has a
// strided target: it becomes linalg.copy.
// CHECK-LABEL: func.func @into_columns
// CHECK-NOT:     memref.copy
// CHECK:         linalg.copy ins(%{{.*}} : memref<?x64xbf16>) outs(%{{.*}} : memref<?x64xbf16, strided<[128, 1], offset: 64>>)
func.func @into_columns(%piece: memref<?x64xbf16>, %whole: memref<?x128xbf16>) {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %piece, %c0 : memref<?x64xbf16>
  %view = memref.subview %whole[0, 64] [%rows, 64] [1, 1]
      : memref<?x128xbf16> to memref<?x64xbf16, strided<[128, 1], offset: 64>>
  memref.copy %piece, %view : memref<?x64xbf16> to memref<?x64xbf16, strided<[128, 1], offset: 64>>
  return
}

// -----

// A strided source too.
// CHECK-LABEL: func.func @from_columns
// CHECK:         linalg.copy ins(%{{.*}} : memref<?x32xf32, strided<[128, 1]>>) outs(%{{.*}} : memref<?x32xf32>)
func.func @from_columns(%whole: memref<?x128xf32>, %piece: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %piece, %c0 : memref<?x32xf32>
  %view = memref.subview %whole[0, 0] [%rows, 32] [1, 1]
      : memref<?x128xf32> to memref<?x32xf32, strided<[128, 1]>>
  memref.copy %view, %piece : memref<?x32xf32, strided<[128, 1]>> to memref<?x32xf32>
  return
}

// -----

// Contiguous copies stay: they lower to memcpy.
// CHECK-LABEL: func.func @contiguous
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<?x64xf32> to memref<?x64xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4x64xf32, strided<[64, 1], offset: 128>> to memref<4x64xf32>
// CHECK-NOT:     linalg.copy
func.func @contiguous(%a: memref<?x64xf32>, %b: memref<?x64xf32>, %c: memref<8x64xf32>, %d: memref<4x64xf32>) {
  memref.copy %a, %b : memref<?x64xf32> to memref<?x64xf32>
  %rows = memref.subview %c[2, 0] [4, 64] [1, 1] : memref<8x64xf32> to memref<4x64xf32, strided<[64, 1], offset: 128>>
  memref.copy %rows, %d : memref<4x64xf32, strided<[64, 1], offset: 128>> to memref<4x64xf32>
  return
}

// The whole block on the CPU path, its concat included, calls no function of
// MLIR's runner utilities.
// BLOCK-NOT: memrefCopy
// BLOCK:     llvm.func @block
// BLOCK-NOT: memrefCopy
