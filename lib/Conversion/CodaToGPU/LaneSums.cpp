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

SmallVector<Value> mlir::coda::scatterSumStep(OpBuilder &b, Location loc,
                                              ArrayRef<Value> lower,
                                              ArrayRef<Value> upper,
                                              int32_t offset, Value lane) {
  // In 32 bits: the lane's bit stays one register.
  Type i32 = b.getI32Type();
  Value keepsUpper = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(
          b, loc, arith::IndexCastUIOp::create(b, loc, i32, lane),
          arith::ConstantIntOp::create(b, loc, i32, offset)),
      arith::ConstantIntOp::create(b, loc, i32, 0));
  SmallVector<Value> sums;
  for (auto [low, high] : llvm::zip_equal(lower, upper)) {
    Value given = arith::SelectOp::create(b, loc, keepsUpper, low, high);
    Value kept = arith::SelectOp::create(b, loc, keepsUpper, high, low);
    sums.push_back(arith::AddFOp::create(
        b, loc, kept,
        gpu::ShuffleOp::create(b, loc, given, offset, 32, gpu::ShuffleMode::XOR)
            .getShuffleResult()));
  }
  return sums;
}

SmallVector<Value> mlir::coda::scatterSumsAcrossLanes(OpBuilder &b,
                                                      Location loc,
                                                      ArrayRef<Value> values,
                                                      ArrayRef<int32_t> offsets,
                                                      Value lane) {
  assert(values.size() % (size_t(1) << offsets.size()) == 0 &&
         "each offset halves the values");
  SmallVector<Value> sums(values);
  for (int32_t offset : offsets) {
    ArrayRef<Value> all(sums);
    size_t half = all.size() / 2;
    sums = scatterSumStep(b, loc, all.take_front(half), all.drop_front(half),
                          offset, lane);
  }
  return sums;
}
