//===- Passes.td - coda conversions ------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_CONVERSION_PASSES_TD
#define CODA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCodaToLinalgPass
    : Pass<"convert-coda-to-linalg", "::mlir::ModuleOp"> {
  let summary = "lower coda ops, graph and epilogue level, to linalg on tensors";
  let description = [{
    The CPU reference path. Every coda op becomes linalg, tensor, arith and
    math ops on tensors with the op's semantics: values are widened to the
    compute type, computed, and rounded once to the result's element type.
    A `coda.gemm` becomes its product in the compute type followed by its
    epilogue, inlined; partial reductions use `tile_n` (128 when unplanned).
    `coda.attention` is lowered naively (scores, mask, softmax, weighted sum).

    With `compute-in-f64`, every floating-point tensor, function arguments
    and results included, becomes f64 and nothing is rounded: the f64
    reference that fused programs are checked against.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let options = [
    Option<"computeInF64", "compute-in-f64", "bool", /*default=*/"false",
           "Compute and store every floating-point tensor in f64">,
  ];
}

#endif // CODA_CONVERSION_PASSES_TD
