// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s

// An epilogue input read from global memory at the output's columns is
// clamped to its last pair only where a tile can reach past it: with the
// output's width a multiple of the 128-column tile, never, and each pair's
// offset stays a constant added to the row's address.
// CHECK-LABEL: gpu.func @aligned_gemm0
//   CHECK-NOT:   arith.constant 254 : index
//       CHECK:   gpu.return
func.func @aligned(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %v: tensor<256xbf16>) -> tensor<?x256xbf16> {
  %y = coda.gemm %x, [%w] inputs(%v) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%acc: tensor<?x256xf32>, %vi: tensor<256xf32>):
    %0 = coda.mul %acc, %vi : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    coda.yield %0 : tensor<?x256xf32>
  }
  return %y : tensor<?x256xbf16>
}

// -----

// A width of 200: the second tile's columns past 199 read the last pair
// (198, 199) instead.
// CHECK-LABEL: gpu.func @ragged_gemm0
//       CHECK:   arith.constant 198 : index
//       CHECK:   arith.minui
//       CHECK:   gpu.return
func.func @ragged(%x: tensor<?x64xbf16>, %w: tensor<200x64xbf16>, %v: tensor<200xbf16>) -> tensor<?x200xbf16> {
  %y = coda.gemm %x, [%w] inputs(%v) : (tensor<?x64xbf16>, tensor<200x64xbf16>, tensor<200xbf16>) -> tensor<?x200xbf16> {
  ^bb0(%acc: tensor<?x200xf32>, %vi: tensor<200xf32>):
    %0 = coda.mul %acc, %vi : (tensor<?x200xf32>, tensor<200xf32>) -> tensor<?x200xf32>
    coda.yield %0 : tensor<?x200xf32>
  }
  return %y : tensor<?x200xbf16>
}
