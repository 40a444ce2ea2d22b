// RUN: coda-opt %s --split-input-file --convert-coda-to-linalg --verify-diagnostics

// An epilogue program must become graph-level ops before this lowering.
func.func @gemm(%a: tensor<?x64xf32>, %w: tensor<32x64xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{convert-coda-to-linalg takes graph-level ops: run coda-inline-epilogues first (coda-cpu-pipeline does)}}
  %y = coda.gemm %a, [%w] : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}
