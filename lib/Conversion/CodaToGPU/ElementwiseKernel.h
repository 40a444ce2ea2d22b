//===- ElementwiseKernel.h - standalone elementwise kernels -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_ELEMENTWISEKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_ELEMENTWISEKERNEL_H

#include "coda/Conversion/CodaToGPU.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// Checks that the kernel can evaluate `op` (an isElementwiseKernelOp,
/// CodaToGPU.h): a map's region holds only ops with a scalar form and column
/// maps, and a concat only as the value it yields. Reports the reason
/// otherwise.
LogicalResult checkElementwiseKernelSupport(Operation *op);

/// Rows of the output each CTA of an elementwise kernel computes, and its
/// threads.
constexpr int64_t kElementwiseRowsPerBlock = 1;
constexpr int64_t kElementwiseThreads = 128;
/// Rows each CTA of a row-sum map's kernel sums, a warp each.
constexpr int64_t kRowSumRowsPerBlock = 8;

/// Emits the kernel of `op` as a `gpu.func` named `name` at the builder's
/// insertion point: CTA r computes output row r, its 128 threads striding
/// over the columns 16 bytes at a time (one element at a time when a row,
/// a slice's offset or half a RoPE head is not a whole number of 16-byte
/// groups), each element from its operands' elements (broadcast as the op
/// broadcasts them; a slice's source at the shifted column; the concat
/// piece's input, one loop per piece, unrolled with its loads ahead of its
/// stores where every thread takes the same steps; RoPE's element, its
/// partner half a head away and the row's tables) in f32, rounded once to
/// the result's type. A map's region is evaluated the same way, op by op from
/// its operands, without storing what it computes in between. Arguments: the
/// row count M as i32, the operands, the result, as pointers. Grid: M CTAs,
/// block: 128 threads. A map with `row_sum` is evaluated the same way by a
/// warp per row, 32 lanes of groups, and stores the row's f32 sum: grid
/// ceil(M / 8) CTAs, block: 256 threads.
void emitElementwiseKernel(OpBuilder &builder, Operation *op, StringRef name);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_ELEMENTWISEKERNEL_H
