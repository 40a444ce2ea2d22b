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

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_LANESUMS_H
