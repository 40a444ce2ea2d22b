//===- MergeParallelLinears.cpp - one GEMM for linears on one input -------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "coda-merge-parallel-linears"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAMERGEPARALLELLINEARSPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

namespace {
/// Rewrites the first of several linears reading one input, together with
/// the others, into a multi-weight GEMM and slices of its result.
struct MergeLinearsOnInput : public OpRewritePattern<LinearOp> {
  MergeLinearsOnInput(MLIRContext *context, unsigned maxWeights)
      : OpRewritePattern(context), maxWeights(maxWeights) {}

  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getX();
    Type elementType = op.getType().getElementType();
    llvm::SetVector<LinearOp> candidates;
    for (Operation *user : x.getUsers()) {
      auto linear = dyn_cast<LinearOp>(user);
      if (linear && linear.getX() == x &&
          linear->getBlock() == op->getBlock() &&
          linear.getType().getElementType() == elementType)
        candidates.insert(linear);
    }
    SmallVector<LinearOp> group = candidates.takeVector();
    llvm::sort(group, [](LinearOp lhs, LinearOp rhs) {
      return lhs->isBeforeInBlock(rhs);
    });
    if (group.front() != op)
      return rewriter.notifyMatchFailure(op,
                                         "not the first linear on its input");

    // The merged GEMM replaces the first linear, so every weight and bias
    // must be available there.
    llvm::erase_if(group, [&](LinearOp linear) {
      return linear != op &&
             (!isDefinedBefore(linear.getW(), op) ||
              (linear.getBias() && !isDefinedBefore(linear.getBias(), op)));
    });
    if (maxWeights != 0 && group.size() > maxWeights)
      group.resize(maxWeights);
    if (group.size() < 2)
      return rewriter.notifyMatchFailure(
          op, "no other linear reads the same input");

    SmallVector<Value> weights, biases;
    SmallVector<int64_t> offsets;
    int64_t width = 0;
    for (LinearOp linear : group) {
      weights.push_back(linear.getW());
      if (linear.getBias())
        biases.push_back(linear.getBias());
      offsets.push_back(width);
      width += linear.getType().getDimSize(1);
    }

    auto xType = cast<RankedTensorType>(x.getType());
    auto resultType =
        RankedTensorType::get({xType.getDimSize(0), width}, elementType);
    GemmOp gemm = createGemm(
        rewriter, op.getLoc(), resultType, x, weights, biases,
        [&](OpBuilder &builder, Location loc, Value acc,
            ValueRange biasArgs) -> SmallVector<Value> {
          if (biases.empty())
            return {acc};
          // Add each bias to its own column range.
          auto accType = cast<RankedTensorType>(acc.getType());
          SmallVector<Value> pieces;
          unsigned nextBias = 0;
          for (auto [linear, offset] : llvm::zip_equal(group, offsets)) {
            int64_t size = linear.getType().getDimSize(1);
            auto pieceType = RankedTensorType::get(
                {accType.getDimSize(0), size}, accType.getElementType());
            Value piece =
                SliceOp::create(builder, loc, pieceType, acc, offset, size);
            if (linear.getBias())
              piece = AddOp::create(builder, loc, pieceType, piece,
                                    biasArgs[nextBias++]);
            pieces.push_back(piece);
          }
          return {ConcatOp::create(builder, loc, accType, pieces)};
        });

    for (auto [linear, offset] : llvm::zip_equal(group, offsets)) {
      rewriter.setInsertionPoint(linear);
      rewriter.replaceOpWithNewOp<SliceOp>(linear, linear.getType(),
                                           gemm.getResult(0), offset,
                                           linear.getType().getDimSize(1));
    }
    return success();
  }

  unsigned maxWeights;
};

struct CodaMergeParallelLinearsPass
    : public coda::impl::CodaMergeParallelLinearsPassBase<
          CodaMergeParallelLinearsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMergeParallelLinearsPatterns(patterns, maxWeights);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateMergeParallelLinearsPatterns(
    RewritePatternSet &patterns, unsigned maxWeights) {
  patterns.add<MergeLinearsOnInput>(patterns.getContext(), maxWeights);
}
