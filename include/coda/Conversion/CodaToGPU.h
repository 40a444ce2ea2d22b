//===- CodaToGPU.h - rewrites before the Hopper kernels ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_CONVERSION_CODATOGPU_H
#define CODA_CONVERSION_CODATOGPU_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::coda {

/// coda.rms_norm_grad -> coda.rms_norm_grad_partials (dx, plus the residual
/// sum that is its only user, and per-block dgamma partials) and
/// coda.sum_rows of the partials.
void populateSplitNormGradientsPatterns(RewritePatternSet &patterns);

/// Each elementwise op outside GEMMs with the elementwise ops that only
/// feed it -> one coda.map.
void populateFormMapsPatterns(RewritePatternSet &patterns);

/// Returns true for the ops an elementwise kernel runs outside a GEMM
/// epilogue: those with a scalar form (ScalarMath.h), the column maps of one
/// row (slices, concats and "half" RoPE) and coda.map, whose every operand
/// is `[M, N]`, a per-column `[N]` or a per-row `[M, 1]` tensor of 16- or
/// 32-bit floats.
bool isElementwiseKernelOp(Operation *op);

} // namespace mlir::coda

#endif // CODA_CONVERSION_CODATOGPU_H
