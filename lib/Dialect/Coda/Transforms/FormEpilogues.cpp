//===- FormEpilogues.cpp - absorb consumers into GEMM epilogues -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "coda-form-epilogues"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAFORMEPILOGUESPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Returns the GEMM whose epilogue can compute `op`, or the reason none can:
/// some operand must be a result of that GEMM, and every other operand must
/// be available before it.
static FailureOr<GemmOp>
findAbsorbingGemm(Operation *op, unsigned maxEpilogueOps, std::string &reason) {
  if (!isTileLocalOp(op)) {
    reason = "'" + op->getName().getStringRef().str() + "' is not tile-local";
    return failure();
  }
  llvm::SetVector<GemmOp> producers;
  for (Value operand : op->getOperands())
    if (auto gemm = operand.getDefiningOp<GemmOp>())
      producers.insert(gemm);
  if (producers.empty()) {
    reason = "no operand is produced by a GEMM";
    return failure();
  }
  for (GemmOp gemm : producers) {
    bool available = llvm::all_of(op->getOperands(), [&](Value operand) {
      return operand.getDefiningOp<GemmOp>() == gemm ||
             isDefinedBefore(operand, gemm);
    });
    if (!available)
      continue;
    if (gemm.getBody().getOperations().size() > maxEpilogueOps) {
      reason = "the producing GEMM's epilogue already has " +
               std::to_string(gemm.getBody().getOperations().size() - 1) +
               " ops (max-epilogue-ops = " + std::to_string(maxEpilogueOps) +
               ")";
      return failure();
    }
    return gemm;
  }
  reason = "an operand is computed after the producing GEMM";
  return failure();
}

namespace {
/// Turns a linear into a GEMM whose epilogue adds the bias.
struct LinearToGemm : public OpRewritePattern<LinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    convertLinearToGemm(rewriter, op);
    return success();
  }
};

/// Turns a matmul into a GEMM over its `[K, N]` operand.
struct MatmulToGemm : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    convertMatmulToGemm(rewriter, op);
    return success();
  }
};

/// Turns a weight-gradient product into a GEMM that reduces over the rows,
/// when its operands share an element type (a GEMM's do).
struct TransposedMatmulToGemm : public OpRewritePattern<TransposedMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposedMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getA().getType().getElementType() !=
        op.getB().getType().getElementType())
      return rewriter.notifyMatchFailure(op, "mixed operand types");
    convertTransposedMatmulToGemm(rewriter, op);
    return success();
  }
};

/// Moves a tile-local op on GEMM results into that GEMM's epilogue.
struct AbsorbIntoEpilogue : public RewritePattern {
  AbsorbIntoEpilogue(MLIRContext *context, unsigned maxEpilogueOps)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxEpilogueOps(maxEpilogueOps) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isTileLocalOp(op) || isa<GemmOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not a graph-level tile-local op");
    std::string reason;
    FailureOr<GemmOp> gemm = findAbsorbingGemm(op, maxEpilogueOps, reason);
    if (failed(gemm))
      return rewriter.notifyMatchFailure(op, reason);

    computeInEpilogue(rewriter, *gemm, op);
    return success();
  }

  unsigned maxEpilogueOps;
};

/// Rounds a GEMM's result in its epilogue: a truncation of a tile result is
/// one more result, of the narrower type, from the same value, so the wider
/// one is not stored when nothing else reads it (a logits gradient that the
/// next products read in bf16).
struct TruncationIntoEpilogue : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getIn().getDefiningOp<GemmOp>();
    if (!producer || !isa<RankedTensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a GEMM's tile result");
    unsigned index = cast<OpResult>(op.getIn()).getResultNumber();
    if (getPartialsSource(
            producer.getBody().getTerminator()->getOperand(index)))
      return rewriter.notifyMatchFailure(op, "the GEMM's result is partials");
    GemmOp extended = extendGemm(
        rewriter, producer, ValueRange(), op.getType(),
        [&](OpBuilder &, Location, ValueRange yielded,
            ValueRange) -> SmallVector<Value> { return {yielded[index]}; });
    rewriter.replaceOp(op, extended.getResults().back());
    return success();
  }
};

/// Computes a cross-entropy over a GEMM's logits from per-tile partials in
/// the GEMM's epilogue, the log-sum-exp and the target logit of each tile,
/// finished per row by reduce_partials, so the loss never reads the logits
/// (and, when nothing else does, they are never stored).
struct CrossEntropyFromEpilogue : public OpRewritePattern<CrossEntropyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CrossEntropyOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getLogits().getDefiningOp<GemmOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "the logits come from no GEMM");
    if (!isDefinedBefore(op.getTargets(), producer))
      return rewriter.notifyMatchFailure(
          op, "the targets are computed after the GEMM");

    unsigned resultIndex = cast<OpResult>(op.getLogits()).getResultNumber();
    RankedTensorType partialsType = getPartialsType(op.getLogits());
    Value targets = op.getTargets();
    GemmOp extended = extendGemm(
        rewriter, producer, targets, {partialsType, partialsType},
        [&](OpBuilder &builder, Location loc, ValueRange yielded,
            ValueRange newInputs) -> SmallVector<Value> {
          Value logits = yielded[resultIndex];
          Value lse = PartialReduceOp::create(builder, loc, partialsType,
                                              logits, "lse", IntegerAttr());
          Value picked = PartialGatherOp::create(
              builder, loc, partialsType, logits, newInputs[0], IntegerAttr());
          return {lse, picked};
        });
    // Each row's log-sum-exp and target logit, finished from the tiles'
    // (the per-row work spreads over rows; the loss reads one value each).
    unsigned count = extended.getNumResults();
    auto finish = [&](Value partials, StringRef kind) {
      return finishRowPartials(rewriter, op.getLoc(), partials, kind,
                               getStatisticType(op.getLogits()));
    };
    rewriter.replaceOpWithNewOp<CrossEntropyFromPartialsOp>(
        op, op.getType(), finish(extended.getResult(count - 2), "lse"),
        finish(extended.getResult(count - 1), "sum"), targets,
        op.getIgnoreIndexAttr(), op.getReductionAttr());
    return success();
  }
};

/// Computes a log-sum-exp of a GEMM's output from per-tile log-sum-exps in
/// its epilogue, so the output need not be stored for it.
struct LogSumExpFromEpilogue : public OpRewritePattern<LogSumExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LogSumExpOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getX().getDefiningOp<GemmOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "the input comes from no GEMM");
    unsigned resultIndex = cast<OpResult>(op.getX()).getResultNumber();
    RankedTensorType partialsType = getPartialsType(op.getX());
    GemmOp extended =
        extendGemm(rewriter, producer, ValueRange(), partialsType,
                   [&](OpBuilder &builder, Location loc, ValueRange yielded,
                       ValueRange) -> SmallVector<Value> {
                     return {PartialReduceOp::create(builder, loc, partialsType,
                                                     yielded[resultIndex],
                                                     "lse", IntegerAttr())};
                   });
    rewriter.replaceOp(op, finishRowPartials(rewriter, op.getLoc(),
                                             extended.getResults().back(),
                                             "lse", op.getType()));
    return success();
  }
};

/// Returns the `[ceil(M / 16), N]` f32 type of the per-block sums over the
/// rows of `x : [M, N]` that a GEMM epilogue computes.
static RankedTensorType getBlockSumsType(Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rows = type.getDimSize(0);
  int64_t blockRows = PartialSumRowsOp::kEpilogueBlockRows;
  return RankedTensorType::get({ShapedType::isDynamic(rows)
                                    ? ShapedType::kDynamic
                                    : (rows + blockRows - 1) / blockRows,
                                type.getDimSize(1)},
                               Float32Type::get(x.getContext()));
}

/// Computes a sum over the rows of a GEMM's tile (a bias gradient) from
/// per-16-row sums in the GEMM's epilogue, finished by a sum over the
/// blocks, so the sum reads ceil(M / 16) rows instead of M.
struct SumRowsFromEpilogue : public OpRewritePattern<SumRowsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SumRowsOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getX().getDefiningOp<GemmOp>();
    if (!producer || producer.getALayout() != "mk")
      return rewriter.notifyMatchFailure(
          op, "the rows come from no GEMM over the rows of its a");
    unsigned resultIndex = cast<OpResult>(op.getX()).getResultNumber();
    if (getPartialsSource(
            producer.getBody().getTerminator()->getOperand(resultIndex)))
      return rewriter.notifyMatchFailure(op, "the GEMM's result is partials");
    RankedTensorType sumsType = getBlockSumsType(op.getX());
    GemmOp extended = extendGemm(
        rewriter, producer, ValueRange(), sumsType,
        [&](OpBuilder &builder, Location loc, ValueRange values,
            ValueRange) -> SmallVector<Value> {
          return {PartialSumRowsOp::create(
              builder, loc, sumsType, values[resultIndex],
              builder.getI64IntegerAttr(PartialSumRowsOp::kEpilogueBlockRows))};
        });
    rewriter.replaceOpWithNewOp<SumRowsOp>(op, op.getType(),
                                           extended.getResults().back());
    return success();
  }
};

/// Moves the ops that compute `value` before `point` when their operands
/// are available there; returns whether `value` then is.
static bool hoistBefore(RewriterBase &rewriter, Value value, Operation *point) {
  if (isDefinedBefore(value, point))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() || !isPure(def) ||
      def->getBlock() != point->getBlock())
    return false;
  for (Value operand : def->getOperands())
    if (!hoistBefore(rewriter, operand, point))
      return false;
  rewriter.moveOpBefore(def, point);
  return true;
}

/// Computes an RMSNorm gradient whose row statistic is given (`row_dot`,
/// from the z·dz identity) in the epilogue of the GEMM that produces dy:
/// dx = r · gamma · dy − x · (r² · row_dot / D) per element, and dgamma as
/// per-block sums over rows of dy · x · r that coda.sum_rows finishes. The
/// norm's scale r is the forward's when the pair saved it, else it comes
/// from a statistics pass over x before the GEMM.
struct RMSNormGradIntoEpilogue : public OpRewritePattern<RMSNormGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RMSNormGradOp op,
                                PatternRewriter &rewriter) const override {
    Value rowDot = op.getRowDot();
    if (!rowDot)
      return rewriter.notifyMatchFailure(op, "no row statistic is given");
    auto producer = op.getDy().getDefiningOp<GemmOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "dy comes from no GEMM");
    Value x = op.getX(), gamma = op.getGamma(), rstd = op.getRstd();
    if (!isDefinedBefore(x, producer) || !isDefinedBefore(gamma, producer) ||
        !hoistBefore(rewriter, rowDot, producer) ||
        (rstd && !hoistBefore(rewriter, rstd, producer)))
      return rewriter.notifyMatchFailure(
          op, "an operand is computed after the GEMM of dy");

    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t width = xType.getDimSize(1);
    rewriter.setInsertionPoint(producer);
    // The forward's scale when it was saved, else a statistics pass.
    if (!rstd)
      rstd = NormStatisticsOp::create(
                 rewriter, loc, TypeRange{getStatisticType(x)}, x,
                 /*gamma=*/Value(), rewriter.getStringAttr("rms_norm"),
                 op.getEpsilonAttr())
                 .getResult(0);

    RankedTensorType partialsType = getBlockSumsType(x);
    unsigned resultIndex = cast<OpResult>(op.getDy()).getResultNumber();
    GemmOp extended = extendGemm(
        rewriter, producer, ValueRange{x, gamma, rstd, rowDot},
        {op.getDx().getType(), partialsType},
        [&](OpBuilder &builder, Location loc, ValueRange yielded,
            ValueRange inputs) -> SmallVector<Value> {
          Value dy = yielded[resultIndex];
          Value xArg = inputs[0], gammaArg = inputs[1], rArg = inputs[2],
                dotArg = inputs[3];
          Type tile = dy.getType(), column = rArg.getType();
          Value direct = MulOp::create(
              builder, loc, tile,
              MulOp::create(builder, loc, tile, dy, gammaArg), rArg);
          Value scale = ScaleOp::create(
              builder, loc, column,
              MulOp::create(builder, loc, column,
                            MulOp::create(builder, loc, column, rArg, rArg),
                            dotArg),
              builder.getF32FloatAttr(-1.0f / float(width)));
          Value dx =
              AddOp::create(builder, loc, tile, direct,
                            MulOp::create(builder, loc, tile, xArg, scale));
          Value normalized = MulOp::create(builder, loc, tile, xArg, rArg);
          Value partials = PartialSumRowsOp::create(
              builder, loc, getEpilogueType(partialsType),
              MulOp::create(builder, loc, tile, dy, normalized),
              builder.getI64IntegerAttr(PartialSumRowsOp::kEpilogueBlockRows));
          return {dx, partials};
        });
    unsigned count = extended.getNumResults();
    rewriter.setInsertionPoint(op);
    Value dgamma = SumRowsOp::create(rewriter, loc, op.getDgamma().getType(),
                                     extended.getResult(count - 1));
    rewriter.replaceOp(op, ValueRange{extended.getResult(count - 2), dgamma});
    return success();
  }
};

struct CodaFormEpiloguesPass
    : public coda::impl::CodaFormEpiloguesPassBase<CodaFormEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormEpiloguesPatterns(patterns, maxEpilogueOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateFormEpiloguesPatterns(RewritePatternSet &patterns,
                                               unsigned maxEpilogueOps) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LinearToGemm, MatmulToGemm, TransposedMatmulToGemm,
               CrossEntropyFromEpilogue, LogSumExpFromEpilogue,
               RMSNormGradIntoEpilogue, SumRowsFromEpilogue,
               TruncationIntoEpilogue>(context);
  patterns.add<AbsorbIntoEpilogue>(context, maxEpilogueOps);
  // Results nobody reads any more leave the GEMM, and their epilogue ops die.
  GemmOp::getCanonicalizationPatterns(patterns, context);
}

std::string mlir::coda::explainUnfused(Operation *op, unsigned maxEpilogueOps) {
  if (isa<GemmOp, func::ReturnOp>(op) || !isa<CodaDialect>(op->getDialect()))
    return "";
  if (isa<AttentionOp>(op))
    return "attention is a boundary: it runs as the caller's kernel";
  if (isa<CrossEntropyFromPartialsOp>(op))
    return "the loss over all the rows, from one log-sum-exp and target "
           "logit per row (a small kernel of one CTA)";
  if (isa<CrossEntropyRowWeightsOp>(op))
    return "each row's weight in the loss's gradient, for the mean over the "
           "count of all the rows not ignored (a small kernel of one CTA)";
  if (isa<ReducePartialsOp>(op))
    return "finishes per-tile partials across the whole row (a small "
           "reduction kernel)";
  if (auto sum = dyn_cast<SumRowsOp>(op)) {
    if (sum.getX().getType().isDynamicDim(0) &&
        !getPartialSumRowsOf(sum.getX()))
      return "a sum over all the rows of a value no GEMM makes (a bias "
             "gradient): a reduction kernel of its own";
    return "a sum over the rows (of a norm gradient's per-block partials): a "
           "small reduction kernel";
  }
  if (isa<RMSNormGradOp, LayerNormGradOp, RMSNormGradPartialsOp,
          LayerNormGradPartialsOp>(op))
    return "dx needs each row's statistics and dgamma a sum over all rows: a "
           "row kernel of its own (with the residual sum it feeds, on the GPU "
           "path)";
  if (auto map = dyn_cast<MapOp>(op)) {
    if (map.getRowSum())
      return "a sum over each row of values no GEMM makes (a norm gradient's "
             "z·dz statistic from saved results and their cotangents): one "
             "kernel that stores the sums alone";
    return "elementwise ops that no GEMM takes, one kernel for the lot";
  }
  if (isa<NormStatisticsOp>(op))
    return "the norm's input is a function argument: no producing GEMM, so "
           "its statistics take a kernel of their own";
  if (isa<LinearOp, MatmulOp>(op))
    return "a GEMM of its own";
  if (isa<TransposedMatmulOp>(op))
    return "a weight-gradient product of operands of two element types: a "
           "GEMM takes one";
  if (auto partial = dyn_cast<PartialReduceOp>(op)) {
    Value x = partial.getX();
    if (isa<BlockArgument>(x))
      return "statistics of a function argument: no producing GEMM";
  }
  if (isa<RMSNormOp, LayerNormOp>(op)) {
    if (op->getResult(0).use_empty())
      return "the result is unused";
    for (Operation *user : op->getResult(0).getUsers()) {
      if (!isa<LinearOp, GemmOp, TransposedMatmulOp>(user))
        return "the result feeds '" + user->getName().getStringRef().str() +
               "', which is not a GEMM: the per-row scale has no epilogue to "
               "go to";
      auto gemm = dyn_cast<GemmOp>(user);
      if (isa<TransposedMatmulOp>(user) ||
          (gemm && (gemm.getALayout() == "km" ||
                    llvm::is_contained(gemm.getB(), op->getResult(0)))))
        return "the result is a weight gradient's operand, reduced over its "
               "rows, where no per-row scale can follow: a row kernel "
               "recomputes it";
    }
    if (isSixteenBitFirstLayerRMSNorm(op))
      return "a 16-bit first-layer norm: h = x * gamma would round a product "
             "of two 16-bit tensors, a biased rounding, so its row kernel "
             "rounds x * rstd * gamma once, as eager does";
    return "not reparameterized";
  }
  if (isa<CrossEntropyOp>(op))
    return op->getOperand(0).getDefiningOp<GemmOp>()
               ? "the targets are computed after the GEMM of the logits"
               : "the logits come from no GEMM";
  std::string reason;
  if (succeeded(findAbsorbingGemm(op, maxEpilogueOps, reason)))
    return "absorbable, but the pipeline left it";
  if (isa<SliceOp>(op))
    return "";
  return reason;
}
