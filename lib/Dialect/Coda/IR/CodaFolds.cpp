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
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
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

/// One slice of `previous`'s source covering `previous` and then `next`,
/// or null when they are not touching slices of one value.
static Value joinTouchingSlices(OpBuilder &builder, Location loc,
                                SliceOp previous, SliceOp next) {
  if (!previous || !next || previous.getX() != next.getX() ||
      previous.getOffset() + previous.getSize() != next.getOffset())
    return Value();
  auto previousType = cast<RankedTensorType>(previous.getType());
  int64_t size = previous.getSize() + next.getSize();
  auto type = RankedTensorType::get({previousType.getDimSize(0), size},
                                    previousType.getElementType());
  return SliceOp::create(builder, loc, type, previous.getX(),
                         previous.getOffset(), size);
}

/// Rewrites `op` with each run of adjacent inputs that `merge` joins (it
/// returns the joined value, or null) replaced by the joined value; fails
/// with `reason` when no two inputs join.
static LogicalResult
mergeAdjacentInputs(ConcatOp op, PatternRewriter &rewriter,
                    function_ref<Value(Value previous, Value next)> merge,
                    StringRef reason) {
  SmallVector<Value> inputs;
  bool merged = false;
  for (Value input : op.getInputs()) {
    if (!inputs.empty())
      if (Value joined = merge(inputs.back(), input)) {
        inputs.back() = joined;
        merged = true;
        continue;
      }
    inputs.push_back(input);
  }
  if (!merged)
    return rewriter.notifyMatchFailure(op, reason);
  rewriter.replaceOpWithNewOp<ConcatOp>(op, op.getType(), inputs);
  return success();
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
    return mergeAdjacentInputs(
        op, rewriter,
        [&](Value previous, Value next) {
          return joinTouchingSlices(rewriter, op.getLoc(),
                                    previous.getDefiningOp<SliceOp>(),
                                    next.getDefiningOp<SliceOp>());
        },
        "no adjacent slices of one value");
  }
};

/// Merges adjacent inputs that rotate touching slices of one value with
/// the same tables and head size into one RoPE of the joined slice: RoPE
/// acts on each head alone, and a slice's width is whole heads (rope_c2).
/// The QKV projection's q and k then share one epilogue.
struct MergeAdjacentRoPEs : public OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    return mergeAdjacentInputs(
        op, rewriter,
        [&](Value previous, Value next) -> Value {
          auto first = previous.getDefiningOp<RoPEOp>();
          auto second = next.getDefiningOp<RoPEOp>();
          if (!first || !second || first.getCos() != second.getCos() ||
              first.getSin() != second.getSin() ||
              first.getHeadDim() != second.getHeadDim() ||
              first.getStyle() != second.getStyle())
            return Value();
          Value joined = joinTouchingSlices(
              rewriter, op.getLoc(), first.getX().getDefiningOp<SliceOp>(),
              second.getX().getDefiningOp<SliceOp>());
          if (!joined)
            return Value();
          return RoPEOp::create(rewriter, op.getLoc(), joined.getType(),
                                joined, second.getCos(), second.getSin(),
                                second.getHeadDim(), second.getStyle());
        },
        "no adjacent RoPEs of touching slices of one value");
  }
};
} // namespace

void ConcatOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<MergeAdjacentSlices, MergeAdjacentRoPEs>(context);
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// Replaces `gemm` by a GEMM with the inputs and results whose indices are
/// kept, moving the epilogue over and dropping the arguments and yielded
/// values of the others.
static void shrinkGemm(GemmOp gemm, ArrayRef<unsigned> keptInputs,
                       ArrayRef<unsigned> keptResults,
                       PatternRewriter &rewriter) {
  SmallVector<Value> inputs;
  for (unsigned index : keptInputs)
    inputs.push_back(gemm.getInputs()[index]);
  SmallVector<Type> resultTypes;
  for (unsigned index : keptResults)
    resultTypes.push_back(gemm.getResult(index).getType());

  auto shrunk =
      GemmOp::create(rewriter, gemm.getLoc(), resultTypes, gemm.getA(),
                     gemm.getB(), inputs, gemm.getALayout(), gemm.getBLayout());
  shrunk->setDiscardableAttrs(gemm->getDiscardableAttrDictionary());
  if (std::optional<ArrayRef<int64_t>> accumulate = gemm.getAccumulate()) {
    SmallVector<int64_t> renumbered(gemm.getInputs().size(), -1);
    for (auto [position, index] : llvm::enumerate(keptInputs))
      renumbered[index] = position;
    SmallVector<int64_t> kept;
    for (unsigned index : keptResults)
      kept.push_back((*accumulate)[index] < 0
                         ? -1
                         : renumbered[(*accumulate)[index]]);
    shrunk.setAccumulate(kept);
  }
  rewriter.eraseBlock(&shrunk.getBody());
  rewriter.inlineRegionBefore(gemm.getEpilogue(), shrunk.getEpilogue(),
                              shrunk.getEpilogue().end());

  Block &body = shrunk.getBody();
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Value> yielded;
  for (unsigned index : keptResults)
    yielded.push_back(yield.getValues()[index]);
  rewriter.modifyOpInPlace(yield,
                           [&] { yield.getValuesMutable().assign(yielded); });
  llvm::BitVector dropped(body.getNumArguments(), true);
  dropped.reset(0);
  for (unsigned index : keptInputs)
    dropped.reset(1 + index);
  body.eraseArguments(dropped);

  SmallVector<Value> replacements(gemm.getNumResults(), Value());
  for (auto [position, index] : llvm::enumerate(keptResults))
    replacements[index] = shrunk.getResult(position);
  for (auto [index, replacement] : llvm::enumerate(replacements))
    if (replacement)
      rewriter.replaceAllUsesWith(gemm.getResult(index), replacement);
  rewriter.eraseOp(gemm);
}

namespace {
/// Drops results nobody reads and inputs the epilogue does not use.
struct ShrinkGemm : public OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    SmallVector<unsigned> keptResults, keptInputs;
    for (OpResult result : gemm.getResults())
      if (!result.use_empty())
        keptResults.push_back(result.getResultNumber());
    llvm::SmallDenseSet<int64_t> accumulatedInto;
    if (std::optional<ArrayRef<int64_t>> accumulate = gemm.getAccumulate())
      for (auto [result, input] : llvm::enumerate(*accumulate))
        if (input >= 0 && !gemm.getResult(result).use_empty())
          accumulatedInto.insert(input);
    for (unsigned index = 0, e = gemm.getInputs().size(); index < e; ++index)
      if (!gemm.getInputArgument(index).use_empty() ||
          accumulatedInto.contains(index))
        keptInputs.push_back(index);
    if (keptResults.size() == gemm.getNumResults() &&
        keptInputs.size() == gemm.getInputs().size())
      return rewriter.notifyMatchFailure(gemm,
                                         "every result and input is used");
    if (keptResults.empty()) {
      rewriter.eraseOp(gemm);
      return success();
    }
    shrinkGemm(gemm, keptInputs, keptResults, rewriter);
    return success();
  }
};
} // namespace

void GemmOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<ShrinkGemm>(context);
}
