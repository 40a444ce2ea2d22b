//===- CodaFolds.cpp - coda folds and canonicalizations -------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Only rewrites that are exact in every element type live here: none of them
// changes a single rounding.
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace mlir::coda;

//===----------------------------------------------------------------------===//
// ScaleOp
//===----------------------------------------------------------------------===//

OpFoldResult ScaleOp::fold(FoldAdaptor) {
  // Multiplying by one is exact.
  if (getFactor().isExactlyValue(1.0) && getX().getType() == getType())
    return getX();
  return {};
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

OpFoldResult SliceOp::fold(FoldAdaptor) {
  // The whole width is the operand itself.
  if (getOffset() == 0 && getType() == getX().getType())
    return getX();

  // A slice of a slice reads one range of the inner source.
  if (auto inner = getX().getDefiningOp<SliceOp>()) {
    getXMutable().assign(inner.getX());
    setOffset(inner.getOffset() + getOffset());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}

namespace {
/// Merges runs of adjacent inputs that are slices of one value covering
/// touching column ranges into a single slice. Together with the folds of
/// SliceOp and ConcatOp, a concat of the slices that partition a value
/// becomes that value.
struct MergeAdjacentSlices : public OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> inputs;
    bool merged = false;
    for (Value input : op.getInputs()) {
      auto slice = input.getDefiningOp<SliceOp>();
      auto previous =
          inputs.empty() ? SliceOp() : inputs.back().getDefiningOp<SliceOp>();
      if (slice && previous && previous.getX() == slice.getX() &&
          previous.getOffset() + previous.getSize() == slice.getOffset()) {
        auto previousType = cast<RankedTensorType>(previous.getType());
        int64_t size = previous.getSize() + slice.getSize();
        auto type = RankedTensorType::get({previousType.getDimSize(0), size},
                                          previousType.getElementType());
        inputs.back() = SliceOp::create(rewriter, op.getLoc(), type,
                                        previous.getX(), previous.getOffset(),
                                        size);
        merged = true;
        continue;
      }
      inputs.push_back(input);
    }
    if (!merged)
      return rewriter.notifyMatchFailure(op, "no adjacent slices of one value");
    rewriter.replaceOpWithNewOp<ConcatOp>(op, op.getType(), inputs);
    return success();
  }
};
} // namespace

void ConcatOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<MergeAdjacentSlices>(context);
}
