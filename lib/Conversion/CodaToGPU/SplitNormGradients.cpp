//===- SplitNormGradients.cpp - norm gradients as row kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A norm's gradient needs statistics of each whole row (for dx) and sums
// over all rows (for dgamma, and LayerNorm's dbeta). On the GPU a row
// kernel computes dx and, per block of rows, the partial sums; coda.sum_rows
// finishes them. The residual stream's gradient, the one user of dx in a block,
// is added where dx is made. The row kernel computes its row statistic itself:
// a given one (row_dot, which coda-form-epilogues could not take into the GEMM
// of dy) is dropped, and the GEMM results that made it with it.
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

/// The operand of the residual sum `sum` of `dx` that is not dx; null
/// without a sum.
static Value getResidual(AddOp sum, Value dx) {
  if (!sum)
    return Value();
  return sum.getA() == dx ? sum.getB() : sum.getA();
}

/// The residual sum the row kernel of `op` (a norm gradient) can make: an
/// add of two values of dx's type that is dx's only user, whose other
/// operand exists before `op`; null when there is none.
static AddOp getResidualSum(Operation *op, Value dx) {
  if (!dx.hasOneUse())
    return AddOp();
  auto add = dyn_cast<AddOp>(*dx.getUsers().begin());
  if (!add || add.getA() == add.getB() ||
      add.getA().getType() != add.getB().getType())
    return AddOp();
  if (Operation *def = getResidual(add, dx).getDefiningOp())
    if (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op))
      return AddOp();
  return add;
}

/// [kNormGradientBlocks, D] f32, the partials of a gradient over `gamma`.
static RankedTensorType getPartialsType(Value gamma) {
  auto type = cast<RankedTensorType>(gamma.getType());
  return RankedTensorType::get({kNormGradientBlocks, type.getDimSize(0)},
                               Float32Type::get(gamma.getContext()));
}

namespace {
/// rms_norm_grad -> rms_norm_grad_partials + sum_rows of its partials, and
/// layer_norm_grad -> layer_norm_grad_partials + a sum_rows for each of
/// dgamma and dbeta: a gradient's results are dx then its vector
/// gradients, its GPU form's are one partials per vector gradient then dx.
/// The residual sum that is dx's only user is taken in.
template <typename GradOp, typename PartialsOp>
struct SplitNormGrad : public OpRewritePattern<GradOp> {
  using OpRewritePattern<GradOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(GradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dx = op.getDx();
    AddOp sum = getResidualSum(op, dx);
    ValueRange vectorGrads = op->getResults().drop_front();
    SmallVector<Type> types(vectorGrads.size(), getPartialsType(op.getGamma()));
    types.push_back(dx.getType());
    auto split = PartialsOp::create(rewriter, loc, types, op.getX(),
                                    op.getGamma(), op.getDy(),
                                    getResidual(sum, dx), op.getEpsilonAttr());
    SmallVector<Value> replacements = {split.getDx()};
    for (auto [grad, partials] :
         llvm::zip_equal(vectorGrads, split->getResults().drop_back()))
      replacements.push_back(
          SumRowsOp::create(rewriter, loc, grad.getType(), partials));
    if (sum)
      rewriter.replaceOp(sum, split.getDx());
    rewriter.replaceOp(op, replacements);
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
  patterns.add<SplitNormGrad<RMSNormGradOp, RMSNormGradPartialsOp>,
               SplitNormGrad<LayerNormGradOp, LayerNormGradPartialsOp>>(
      patterns.getContext());
}
