//===- LaneSums.h - sums across the lanes of a warp -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_LANESUMS_H
#define CODA_LIB_CONVERSION_CODATOGPU_LANESUMS_H

#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// Adds to f32 `value` its copies in the lanes `lane ^ offset`, one offset
/// after the other: {1, 2} sums the four lanes of a quad, {16, 8, 4, 2, 1}
/// the whole warp; every lane gets the sum.
Value sumAcrossLanes(OpBuilder &builder, Location loc, Value value,
                     ArrayRef<int32_t> offsets);

/// The same with the maximum (arith.maximumf) instead of the sum.
Value maxAcrossLanes(OpBuilder &builder, Location loc, Value value,
                     ArrayRef<int32_t> offsets);

/// One step of a sum across lanes that leaves each lane part of the sums:
/// the lanes whose `lane & offset` is set return upper[i] plus its copy in
/// the lane `lane ^ offset`, the others lower[i] plus its copy (one shuffle
/// per pair). `lane` is the thread's lane, an index.
SmallVector<Value> scatterSumStep(OpBuilder &builder, Location loc,
                                  ArrayRef<Value> lower, ArrayRef<Value> upper,
                                  int32_t offset, Value lane);

/// scatterSumStep over the halves of `values`, one offset after the other:
/// returns values.size() >> offsets.size() sums; with offsets {16, 8, 4}
/// and 32 values, lane L holds the sums over the eight lanes L % 4 + 4i of
/// values [4 (L / 4), 4 (L / 4) + 4).
SmallVector<Value> scatterSumsAcrossLanes(OpBuilder &builder, Location loc,
                                          ArrayRef<Value> values,
                                          ArrayRef<int32_t> offsets,
                                          Value lane);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_LANESUMS_H
