//===- LaneSums.cpp - sums and maxima across the lanes of a warp ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LaneSums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

template <typename CombineOp>
static Value combineAcrossLanes(OpBuilder &b, Location loc, Value value,
                                ArrayRef<int32_t> offsets) {
  for (int32_t offset : offsets)
    value = CombineOp::create(
        b, loc, value,
        gpu::ShuffleOp::create(b, loc, value, offset, 32, gpu::ShuffleMode::XOR)
            .getShuffleResult());
  return value;
}

Value mlir::coda::sumAcrossLanes(OpBuilder &b, Location loc, Value value,
                                 ArrayRef<int32_t> offsets) {
  return combineAcrossLanes<arith::AddFOp>(b, loc, value, offsets);
}

Value mlir::coda::maxAcrossLanes(OpBuilder &b, Location loc, Value value,
                                 ArrayRef<int32_t> offsets) {
  return combineAcrossLanes<arith::MaximumFOp>(b, loc, value, offsets);
}
