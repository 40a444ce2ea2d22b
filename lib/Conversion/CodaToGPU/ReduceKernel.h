//===- ReduceKernel.h - kernels that finish per-tile partials ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_REDUCEKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_REDUCEKERNEL_H

#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// Rows, one per warp, of a reduction kernel's block.
constexpr int64_t kReduceRowsPerBlock = 8;
/// The most partials a lane loads before it combines them (registers per
/// input): 1024 partials per row, a 131072-column GEMM's, in one batch.
constexpr int64_t kReduceStepsInFlight = 32;

/// Returns the number of partials per row `reduce` finishes, from the
/// `coda.partial_reduce` in the GEMM that produces them; reports on the op
/// when the generator cannot take it.
FailureOr<int64_t> checkReduceKernelSupport(ReducePartialsOp reduce);

/// Emits the kernel of `reduce` as a `gpu.func` named `name` at the
/// builder's insertion point: one warp per row sums the row's `partials`
/// values (its lanes read consecutive ones) and stores the sum (kind "sum") or
/// `rsqrt(sum / count + epsilon)` (kind "rstd"), or takes their maximum (kind
/// "max") or `max + log Σ exp(v − max)` of them (kind "lse", over per-block
/// log-sum-exps); for "mean_rstd" it combines block sums and centered sums of
/// squares into the mean and rsqrt(var + epsilon) without cancellation.
/// Arguments: the row count M as i32, the partials, the `[M, 1]` f32
/// results. Grid: ceil(M / kReduceRowsPerBlock), block: 32 x
/// kReduceRowsPerBlock threads.
void emitReduceKernel(OpBuilder &builder, ReducePartialsOp reduce,
                      StringRef name, int64_t partials);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_REDUCEKERNEL_H
