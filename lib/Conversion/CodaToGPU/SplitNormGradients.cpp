//===- SplitNormGradients.cpp - norm gradients as row kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A norm's gradient needs a statistic of each whole row (for dx) and a sum
// over all rows (for dgamma). On the GPU a row kernel computes dx and, per
// block of rows, the partial sums of dgamma; coda.sum_rows finishes them.
// The residual stream's gradient, the one user of dx in a block, is added
// where dx is made. The row kernel computes its row statistic itself: a
// given one (row_dot, which coda-form-epilogues could not take into the
// GEMM of dy) is dropped, and the GEMM results that made it with it.
//
//===----------------------------------------------------------------------===//

#include "NormKernels.h"
#include "coda/Conversion/CodaToGPU.h"
#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODASPLITNORMGRADIENTSPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// The residual sum the row kernel of `op` can make: an add of two values
/// of dx's type that is dx's only user, whose other operand exists before
/// `op`; null when there is none.
static AddOp getResidualSum(RMSNormGradOp op) {
  Value dx = op.getDx();
  if (!dx.hasOneUse())
    return AddOp();
  auto add = dyn_cast<AddOp>(*dx.getUsers().begin());
  if (!add || add.getA() == add.getB() ||
      add.getA().getType() != add.getB().getType())
    return AddOp();
  Value residual = add.getA() == dx ? add.getB() : add.getA();
  if (Operation *def = residual.getDefiningOp())
    if (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op))
      return AddOp();
  return add;
}

namespace {
/// rms_norm_grad -> rms_norm_grad_partials + sum_rows, taking in the
/// residual sum that is dx's only user.
struct SplitRMSNormGrad : public OpRewritePattern<RMSNormGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RMSNormGradOp op,
                                PatternRewriter &rewriter) const override {
    Value dx = op.getDx();
    AddOp sum = getResidualSum(op);
    Value residual;
    if (sum)
      residual = sum.getA() == dx ? sum.getB() : sum.getA();

    auto gammaType = cast<RankedTensorType>(op.getGamma().getType());
    auto partialsType = RankedTensorType::get(
        {kNormGradientBlocks, gammaType.getDimSize(0)}, rewriter.getF32Type());
    auto split = RMSNormGradPartialsOp::create(
        rewriter, op.getLoc(), TypeRange{partialsType, dx.getType()}, op.getX(),
        op.getGamma(), op.getDy(), residual, op.getEpsilonAttr());
    auto dgamma = SumRowsOp::create(rewriter, op.getLoc(), gammaType,
                                    split.getPartials());
    if (sum)
      rewriter.replaceOp(sum, split.getDx());
    rewriter.replaceOp(op, ValueRange{split.getDx(), dgamma.getResult()});
    return success();
  }
};

struct CodaSplitNormGradientsPass
    : public coda::impl::CodaSplitNormGradientsPassBase<
          CodaSplitNormGradientsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSplitNormGradientsPatterns(patterns);
    GemmOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateSplitNormGradientsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SplitRMSNormGrad>(patterns.getContext());
}
