//===- StatisticsKernel.h - standalone norm statistics kernels --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_STATISTICSKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_STATISTICSKERNEL_H

#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// Rows of x per block of a statistics kernel: one warp per row.
constexpr int64_t kStatisticsRowsPerBlock = 4;

/// Checks that the generator can take `op`; reports the reason otherwise.
LogicalResult checkStatisticsKernelSupport(NormStatisticsOp op);

/// Emits the kernel of `op` as a `gpu.func` named `name` at the builder's
/// insertion point: one warp per row reads the row in pairs of columns,
/// reduces its sum (and, for "layer_norm", then its centered sum of
/// squares) across the warp with xor shuffles, and writes h = x · gamma
/// (centered for "layer_norm"), rstd and the mean. Arguments: M as i32, x,
/// gamma when present, then the results. Grid: ceil(M / 4), block: 128.
void emitStatisticsKernel(OpBuilder &builder, NormStatisticsOp op,
                          StringRef name);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_STATISTICSKERNEL_H
