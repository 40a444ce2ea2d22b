//===- LossKernel.h - cross-entropy from row statistics ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_LOSSKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_LOSSKERNEL_H

#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// Threads of the loss kernel's one CTA.
constexpr int64_t kLossThreads = 1024;

/// Checks that the generator can take `op`: its log-sum-exps and target
/// logits are one per row ([M, 1], as coda-form-epilogues finishes them);
/// reports the reason otherwise.
LogicalResult checkLossKernelSupport(CrossEntropyFromPartialsOp op);

/// Emits the kernel of `op` as a `gpu.func` named `name` at the builder's
/// insertion point: one CTA of 1024 threads, thread t taking rows t,
/// t + 1024, ...; a row whose target is not ignore_index loses
/// lse − target logit. "none" stores each row's loss (0 when ignored);
/// "sum" and "mean" add the losses and the rows counted across the warp,
/// then across the warps in shared memory, and the first thread stores the
/// sum, or the sum over the count (NaN when every row is ignored, as
/// PyTorch). Arguments: M as i32, the log-sum-exps, the target logits, the
/// targets, the result. Grid: 1, block: 1024.
void emitLossKernel(OpBuilder &builder, CrossEntropyFromPartialsOp op,
                    StringRef name);

/// Emits the kernel of `op` as a `gpu.func` named `name`: one CTA of 1024
/// threads over all the rows, as the loss kernel. For "mean" the threads
/// first count the rows whose target is not ignore_index (added across the
/// CTA, every thread getting the count); then each stores its rows'
/// weights, dloss (over the count for "mean", the row's own for "none") or
/// 0 for an ignored row. Arguments: M as i32, the targets, dloss, the
/// weights. Grid: 1, block: 1024.
void emitRowWeightsKernel(OpBuilder &builder, CrossEntropyRowWeightsOp op,
                          StringRef name);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_LOSSKERNEL_H
