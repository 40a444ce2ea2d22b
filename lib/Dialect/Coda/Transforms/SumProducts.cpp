//===- SumProducts.cpp - one GEMM for products that are added -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "coda-sum-products"

namespace mlir::coda {
#define GEN_PASS_DEF_CODASUMPRODUCTSPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Whether `gemm` computes its products and nothing else: one result, no
/// inputs, an epilogue that yields the accumulator.
static bool isPlainProduct(GemmOp gemm) {
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  return gemm.getNumResults() == 1 && gemm.getInputs().empty() &&
         !gemm.getAccumulate() && &gemm.getBody().front() == yield &&
         yield.getValues().front() == gemm.getAccumulator();
}

/// Whether the products of `other` can join those of `gemm`: the same
/// layouts, a static reduction, and weights of the same columns.
static bool canJoin(GemmOp gemm, GemmOp other) {
  if (gemm.getALayout() != "mk" || other.getALayout() != "mk" ||
      gemm.getBLayout() != other.getBLayout())
    return false;
  if (gemm.getFirstA().getType().getElementType() !=
      other.getFirstA().getType().getElementType())
    return false;
  ValueRange weights = gemm.getProductWeights(0);
  for (unsigned product = 0; product < other.getNumProducts(); ++product) {
    ValueRange otherWeights = other.getProductWeights(product);
    if (otherWeights.size() != weights.size())
      return false;
    for (auto [weight, otherWeight] : llvm::zip_equal(weights, otherWeights))
      if (gemm.getWeightColumns(weight) != other.getWeightColumns(otherWeight))
        return false;
  }
  return true;
}

/// Returns the epilogue's `acc + x` when it is the accumulator's only use and
/// the only use of input argument `x`.
static AddOp getAccumulatorSum(GemmOp gemm, BlockArgument x) {
  BlockArgument acc = gemm.getAccumulator();
  if (!acc.hasOneUse() || !x.hasOneUse())
    return AddOp();
  auto add = dyn_cast<AddOp>(*acc.getUsers().begin());
  if (!add || *x.getUsers().begin() != add.getOperation() ||
      add.getType() != acc.getType() || x.getType() != acc.getType())
    return AddOp();
  return add;
}

namespace {
/// Rewrites a GEMM whose epilogue adds another GEMM's plain product to its
/// accumulator into one GEMM over both products.
struct SumAddedProduct : public OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayRef<int64_t>> accumulate = gemm.getAccumulate();
    for (auto [index, input] : llvm::enumerate(gemm.getInputs())) {
      auto other = input.getDefiningOp<GemmOp>();
      if (!other || !input.hasOneUse() || !isPlainProduct(other) ||
          !canJoin(gemm, other))
        continue;
      if (accumulate && llvm::is_contained(*accumulate, int64_t(index)))
        continue;
      AddOp add = getAccumulatorSum(gemm, gemm.getInputArgument(index));
      if (!add)
        continue;

      SmallVector<Value> a(gemm.getA()), weights(gemm.getB());
      llvm::append_range(a, other.getA());
      llvm::append_range(weights, other.getB());
      // The rebuilt GEMM takes over the epilogue's ops, `add` among them.
      GemmOp summed = rebuildGemm(rewriter, gemm, a, weights, {});
      // The accumulator is the sum now; the input goes unused and the other
      // GEMM unread (the canonicalization drops both).
      rewriter.replaceOp(add, summed.getAccumulator());
      return success();
    }
    return rewriter.notifyMatchFailure(
        gemm, "no input is another GEMM's product added to the accumulator");
  }
};

struct CodaSumProductsPass
    : public coda::impl::CodaSumProductsPassBase<CodaSumProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSumProductsPatterns(patterns);
    GemmOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateSumProductsPatterns(RewritePatternSet &patterns) {
  patterns.add<SumAddedProduct>(patterns.getContext());
}
