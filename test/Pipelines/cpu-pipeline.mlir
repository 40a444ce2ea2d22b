// The CPU reference pipeline takes a function at the epilogue level down to
// the LLVM dialect, with the C interface coda-run calls.
//
// RUN: coda-opt %s --coda-cpu-pipeline | FileCheck %s
// RUN: coda-opt %s --coda-cpu-pipeline="compute-in-f64" | FileCheck %s --check-prefix=F64
// RUN: coda-opt %examples/llama3-1b-block.mlir --coda-fuse-pipeline --coda-cpu-pipeline | FileCheck %s --check-prefix=BLOCK

// CHECK-LABEL: llvm.func @residual
//   CHECK-NOT:   coda.
//       CHECK: llvm.func @_mlir_ciface_residual
// F64-LABEL: llvm.func @residual
//       F64:   llvm.fadd {{.*}} : f64
// BLOCK: llvm.func @block
// BLOCK-NOT: coda.
// BLOCK-NOT: linalg.
func.func @residual(%y: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %r: tensor<?x32xbf16>) -> tensor<?x32xbf16> attributes {llvm.emit_c_interface} {
  %x = coda.gemm %y, [%w] inputs(%r) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %res: tensor<?x32xf32>):
    %s = coda.add %acc, %res : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    coda.yield %s : tensor<?x32xf32>
  }
  return %x : tensor<?x32xbf16>
}
