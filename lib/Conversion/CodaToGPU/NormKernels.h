//===- NormKernels.h - norms and their gradients as row kernels -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_NORMKERNELS_H
#define CODA_LIB_CONVERSION_CODATOGPU_NORMKERNELS_H

#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// Blocks of a norm gradient's kernel, one warp each, and so the rows of
/// its dgamma partials: 8 warps on each of an H200's 132 SMs.
constexpr int64_t kNormGradientBlocks = 1056;
constexpr int64_t kNormGradientThreads = 32;

/// Rows of x per CTA of an RMSNorm kernel: a warp per row.
constexpr int64_t kNormRowsPerBlock = 4;

/// Threads of a sum_rows CTA: 32 warps, whose lanes cover 32 columns (a
/// CTA per 32 columns leaves most SMs idle, so each keeps 32 warps' loads
/// in flight).
constexpr int64_t kSumRowsThreads = 1024;
constexpr int64_t kSumRowsColumns = 32;

/// Returns true for the ops these kernels run: coda.rms_norm,
/// coda.layer_norm, coda.rms_norm_grad_partials,
/// coda.layer_norm_grad_partials and coda.sum_rows.
bool isNormKernelOp(Operation *op);

/// Checks that the generator can take `op` (an isNormKernelOp); reports
/// the reason otherwise.
LogicalResult checkNormKernelSupport(Operation *op);

/// Emits the kernel of `op` as a `gpu.func` named `name` at the builder's
/// insertion point.
///
/// coda.rms_norm and coda.layer_norm: a warp per row holds the row in
/// registers, each lane a group of columns at a time from columns
/// group · (lane + 32 i) (16 bytes, or the widest power of two of elements
/// below that whose groups tile a row of a multiple of 32 columns), sums
/// across the warp (the mean first, for LayerNorm, then the centred
/// squares) and writes x̂ · gamma (+ beta). Arguments: M as i32, x, gamma,
/// beta (LayerNorm), the result. Grid: ceil(M / 4), block: 128.
///
/// coda.rms_norm_grad_partials and coda.layer_norm_grad_partials: warp b
/// of the 1056 takes rows b, b + 1056, ...; for each it sums the row's
/// statistics and those of g = gamma · dy across the warp, writes dx
/// (+ residual), and adds dy · x̂ (and dy, for LayerNorm's dbeta) to the
/// lane's sums, which it stores as partials row b at the end. Arguments:
/// M as i32, x, gamma, dy, the residual when present, the partials (dgamma's,
/// then dbeta's), dx. Grid: 1056, block: 32. A lane holds D / 32 sums of
/// each partial in registers (64 for D = 2048, where ptxas spills 96 bytes
/// for RMSNorm); wider rows spill more.
///
/// coda.sum_rows (static rows): CTA j sums columns 32 j .. 32 j + 31, warp
/// w rows w, w + 8, ..., sixteen loads in flight, and the warps' sums meet
/// in shared memory. Arguments: the row count as i32, x, the result.
/// Grid: (1, ceil(N / 32)), block: 256.
void emitNormKernel(OpBuilder &builder, Operation *op, StringRef name);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_NORMKERNELS_H
