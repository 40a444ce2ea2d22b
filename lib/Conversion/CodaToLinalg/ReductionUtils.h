//===- ReductionUtils.h - row statistics for the CPU lowering ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to the CPU reference lowering: the row statistics that the norms,
// the loss and their gradients share.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOLINALG_REDUCTIONUTILS_H
#define CODA_LIB_CONVERSION_CODATOLINALG_REDUCTIONUTILS_H

#include "LoweringUtils.h"

#include <utility>

namespace mlir::coda {

/// 1 / sqrt(sum / count + epsilon), on scalars.
Value inverseRootMean(OpBuilder &b, Location loc, Value sum, int64_t count,
                      double epsilon);

/// x · x, on scalars.
Value square(OpBuilder &b, Location loc, Value x);

/// The map of a plain reduction: the element itself.
Value firstArgument(OpBuilder &, Location, ValueRange args);

/// A reduction over fixed groups of elements (whole rows, or column blocks):
/// the reduced values of `map` applied to each element and its group's
/// entries of `groupInputs`.
using GroupReduction = function_ref<Value(ValueRange groupInputs,
                                          ReductionKind kind, ScalarBody map)>;

/// Returns `max + log(sum(exp(x - max)))` over each group of `reduce`.
Value buildLogSumExp(OpBuilder &builder, Location loc, Type computeType,
                     GroupReduction reduce);

/// Returns the log-sum-exp along each row of `x` as `[M]`.
Value buildRowLogSumExp(OpBuilder &builder, Location loc, Value x,
                        Type computeType);

/// Returns the row sums of squares of `x` as `[M]`, the RMSNorm statistic.
Value buildRowSumSquares(OpBuilder &builder, Location loc, Value x,
                         Type computeType);

/// Returns the row sums of `x` and the row sums of squares about the mean
/// (two passes, as PyTorch computes the variance), both `[M]`.
std::pair<Value, Value> buildRowMoments(OpBuilder &builder, Location loc,
                                        Value x, int64_t width,
                                        Type computeType);

/// The maps of an `[M, N]` elementwise op reading `[M, N]` operands, `[M]`
/// row statistics and `[N]` vectors, in that order.
SmallVector<AffineMap> getNormMaps(MLIRContext *context, unsigned matrices,
                                   unsigned rows, unsigned vectors);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOLINALG_REDUCTIONUTILS_H
