//===- ReparameterizeNorms.cpp - norms as statistics and row scales -------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A norm's per-row factor commutes with the GEMM that consumes the norm:
//
//   RMSNorm:   (rstd · x · γ) Wᵀ           = rstd · ((x · γ) Wᵀ)
//   LayerNorm: ((x − μ) · rstd · γ + β) Wᵀ = rstd · ((x · γ) Wᵀ)
//                                           − (rstd · μ) · (γ Wᵀ) + β Wᵀ
//
// so the norm becomes per-row statistics of x, the side value h = x · γ that
// the GEMM reads instead, and a correction of the GEMM's accumulator in its
// epilogue. coda-form-epilogues later moves the statistics and h into the
// epilogue of the GEMM that produces x.
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <tuple>

#define DEBUG_TYPE "coda-reparameterize-norms"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAREPARAMETERIZENORMSPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Checks that every user of `normalized` is a GEMM reading it as its
/// activation (`coda.linear` x, or the `a` of a single-product `coda.gemm`
/// in the "mk" layout: a row scale would apply to every product).
static LogicalResult checkOnlyGemmUsers(Value normalized, Operation *norm,
                                        PatternRewriter &rewriter) {
  if (normalized.use_empty())
    return rewriter.notifyMatchFailure(norm, "the result is unused");
  for (OpOperand &use : normalized.getUses()) {
    Operation *user = use.getOwner();
    bool isActivation = (isa<LinearOp>(user) && use.getOperandNumber() == 0) ||
                        (isa<GemmOp>(user) && use.getOperandNumber() == 0 &&
                         cast<GemmOp>(user).getNumProducts() == 1 &&
                         cast<GemmOp>(user).getALayout() == "mk");
    if (!isActivation)
      return rewriter.notifyMatchFailure(norm, [&](Diagnostic &diag) {
        diag << "the result feeds '" << user->getName()
             << "', which is not a GEMM reading it as its activation";
      });
  }
  return success();
}

/// Returns the users of `normalized` as GEMMs, turning linears into GEMMs.
static SmallVector<GemmOp> getConsumingGemms(Value normalized,
                                             PatternRewriter &rewriter) {
  SmallVector<Operation *> users(normalized.getUsers());
  SmallVector<GemmOp> gemms;
  for (Operation *user : users) {
    if (auto linear = dyn_cast<LinearOp>(user))
      gemms.push_back(convertLinearToGemm(rewriter, linear));
    else if (!llvm::is_contained(gemms, cast<GemmOp>(user)))
      gemms.push_back(cast<GemmOp>(user));
  }
  return gemms;
}

/// Returns the weights of `gemm`, each multiplied by `gamma` along K when
/// `foldGamma` is set.
static SmallVector<Value> getWeights(GemmOp gemm, Value gamma, bool foldGamma,
                                     PatternRewriter &rewriter) {
  SmallVector<Value> weights(gemm.getB());
  if (!foldGamma)
    return weights;
  for (Value &weight : weights)
    weight =
        MulOp::create(rewriter, gemm.getLoc(), weight.getType(), weight, gamma);
  return weights;
}

/// Builds `vector Wᵀ` for every weight of `gemm`, concatenated: a per-column
/// f32 vector of the GEMM's N.
static Value buildVectorTimesWeights(Value vector, GemmOp gemm,
                                     PatternRewriter &rewriter) {
  Location loc = gemm.getLoc();
  auto vectorType = cast<RankedTensorType>(vector.getType());
  auto rowType = RankedTensorType::get({1, vectorType.getDimSize(0)},
                                       vectorType.getElementType());
  Value row = tensor::ExpandShapeOp::create(
      rewriter, loc, rowType, vector, ArrayRef<ReassociationIndices>{{0, 1}});
  SmallVector<Value> pieces;
  int64_t n = 0;
  for (Value weight : gemm.getB()) {
    int64_t size = cast<RankedTensorType>(weight.getType()).getDimSize(0);
    auto pieceType = RankedTensorType::get({1, size}, rewriter.getF32Type());
    pieces.push_back(LinearOp::create(rewriter, loc, pieceType, row, weight,
                                      /*bias=*/Value()));
    n += size;
  }
  auto allType = RankedTensorType::get({1, n}, rewriter.getF32Type());
  Value all = pieces.size() == 1
                  ? pieces.front()
                  : ConcatOp::create(rewriter, loc, allType, pieces);
  return tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({n}, rewriter.getF32Type()), all,
      ArrayRef<ReassociationIndices>{{0, 1}});
}

/// Replaces `gemm` by one that reads `a` and `weights`, takes `extraInputs`
/// and whose epilogue sees `correct(acc, inputs)` in place of its
/// accumulator.
static void correctAccumulator(
    GemmOp gemm, Value a, ValueRange weights, ValueRange extraInputs,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> correct,
    PatternRewriter &rewriter) {
  GemmOp rebuilt = rebuildGemm(rewriter, gemm, a, weights, extraInputs);
  SmallVector<Value> args;
  for (Value input : extraInputs)
    args.push_back(getInputArgument(rebuilt, input));
  Value acc = rebuilt.getAccumulator();
  Block &body = rebuilt.getBody();
  Operation *firstOriginal = &body.front();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&body);
  Value corrected = correct(rewriter, rebuilt.getLoc(), acc, args);
  // The correction is built at the start of the block; the original epilogue
  // follows it and now reads the corrected accumulator.
  rewriter.replaceUsesWithIf(acc, corrected, [&](OpOperand &use) {
    Operation *owner = use.getOwner();
    return owner == firstOriginal || firstOriginal->isBeforeInBlock(owner);
  });
}

//===----------------------------------------------------------------------===//
// Per-norm statistics and accumulator corrections
//===----------------------------------------------------------------------===//

namespace {
/// The per-row statistics of a norm's input, `[M, 1]` f32 each.
struct NormStatistics {
  Value rstd;
  /// The mean, for LayerNorm only.
  Value mean;
  /// Whether `h` is already centered, `(x − μ) · γ`, so the consumers need
  /// no mean correction.
  bool centered = false;
};
} // namespace

/// RMSNorm: sums of squares finished into rstd.
static NormStatistics buildStatistics(RMSNormOp norm,
                                      PatternRewriter &rewriter) {
  return {buildRMSNormRstd(rewriter, norm.getLoc(), norm.getX(),
                           norm.getEpsilonAttr()),
          Value()};
}

/// LayerNorm: block sums and centered sums of squares finished into the
/// mean and rstd.
static NormStatistics buildStatistics(LayerNormOp norm,
                                      PatternRewriter &rewriter) {
  Location loc = norm.getLoc();
  Value x = norm.getX();
  Value sums = PartialReduceOp::create(rewriter, loc, getPartialsType(x), x,
                                       "sum", IntegerAttr());
  Value centered =
      PartialReduceOp::create(rewriter, loc, getPartialsType(x), x,
                              "centered_sum_squares", IntegerAttr());
  auto statistics = ReducePartialsOp::create(
      rewriter, loc, TypeRange{getStatisticType(x), getStatisticType(x)},
      ValueRange{sums, centered}, "mean_rstd",
      rewriter.getI64IntegerAttr(norm.getType().getDimSize(1)),
      norm.getEpsilonAttr(), /*tile_n=*/IntegerAttr());
  return {statistics.getResult(1), statistics.getResult(0)};
}

/// The first layer's norm: one kernel reads `x` and gives `h = x * gamma`
/// (or `x` itself when gamma is folded into the weights) and the statistics.
template <typename NormOp>
static std::pair<Value, NormStatistics>
buildStandaloneStatistics(NormOp norm, bool foldGamma,
                          PatternRewriter &rewriter) {
  Value x = norm.getX();
  bool layer = isa<LayerNormOp>(norm.getOperation());
  SmallVector<Type> types;
  if (!foldGamma)
    types.push_back(norm.getType());
  types.push_back(getStatisticType(x));
  if (layer)
    types.push_back(getStatisticType(x));
  auto statistics = NormStatisticsOp::create(
      rewriter, norm.getLoc(), types, x, foldGamma ? Value() : norm.getGamma(),
      rewriter.getStringAttr(layer ? "layer_norm" : "rms_norm"),
      norm.getEpsilonAttr());
  ValueRange results = statistics.getResults();
  Value h = foldGamma ? x : results.front();
  results = results.drop_front(foldGamma ? 0 : 1);
  // With gamma kept, the kernel gives the centered h (norm_statistics_c1):
  // the consumers then scale by rstd and add beta Wᵀ, and nothing cancels.
  return {h, NormStatistics{results[0], layer ? results[1] : Value(),
                            layer && !foldGamma}};
}

/// RMSNorm: the accumulator of `h Wᵀ` times rstd.
static void correctConsumer(RMSNormOp norm, GemmOp gemm, Value h,
                            ValueRange weights,
                            const NormStatistics &statistics,
                            PatternRewriter &rewriter) {
  correctAccumulator(
      gemm, h, weights, statistics.rstd,
      [](OpBuilder &builder, Location loc, Value acc, ValueRange args) {
        return MulOp::create(builder, loc, acc.getType(), acc, args[0])
            .getResult();
      },
      rewriter);
}

/// LayerNorm: `rstd · acc + β Wᵀ` when `h` is centered, else
/// `rstd · acc − (rstd · μ) · (γ Wᵀ) + β Wᵀ`.
static void correctConsumer(LayerNormOp norm, GemmOp gemm, Value h,
                            ValueRange weights,
                            const NormStatistics &statistics,
                            PatternRewriter &rewriter) {
  Value betaColumns = buildVectorTimesWeights(norm.getBeta(), gemm, rewriter);
  if (statistics.centered) {
    // rstd · acc + β Wᵀ
    correctAccumulator(
        gemm, h, weights, {statistics.rstd, betaColumns},
        [](OpBuilder &builder, Location loc, Value acc, ValueRange args) {
          Value scaled =
              MulOp::create(builder, loc, acc.getType(), acc, args[0]);
          return AddOp::create(builder, loc, acc.getType(), scaled, args[1])
              .getResult();
        },
        rewriter);
    return;
  }
  Value gammaColumns = buildVectorTimesWeights(norm.getGamma(), gemm, rewriter);
  correctAccumulator(
      gemm, h, weights,
      {statistics.rstd, statistics.mean, gammaColumns, betaColumns},
      [](OpBuilder &builder, Location loc, Value acc, ValueRange args) {
        Value rstd = args[0], mean = args[1];
        Type columnType = rstd.getType();
        Value scaled = MulOp::create(builder, loc, acc.getType(), acc, rstd);
        Value rstdMean = MulOp::create(builder, loc, columnType, rstd, mean);
        Value negated = ScaleOp::create(builder, loc, columnType, rstdMean,
                                        builder.getF32FloatAttr(-1.0f));
        Value centered = AddOuterOp::create(builder, loc, acc.getType(), scaled,
                                            negated, args[2]);
        return AddOp::create(builder, loc, acc.getType(), centered, args[3])
            .getResult();
      },
      rewriter);
}

namespace {
/// Rewrites a norm whose result only feeds GEMMs into statistics of its
/// input, the side value `h`, and a correction in every consuming GEMM.
template <typename NormOp>
struct ReparameterizeNorm : public OpRewritePattern<NormOp> {
  ReparameterizeNorm(MLIRContext *context, bool foldGamma)
      : OpRewritePattern<NormOp>(context), foldGamma(foldGamma) {}

  LogicalResult matchAndRewrite(NormOp norm,
                                PatternRewriter &rewriter) const override {
    if (failed(checkOnlyGemmUsers(norm.getResult(), norm, rewriter)))
      return failure();
    if (!foldGamma && isSixteenBitFirstLayerRMSNorm(norm))
      return rewriter.notifyMatchFailure(
          norm, "a 16-bit first-layer RMSNorm keeps its kernel: its h = x * "
                "gamma would round a product of 16-bit tensors");
    SmallVector<GemmOp> consumers =
        getConsumingGemms(norm.getResult(), rewriter);

    rewriter.setInsertionPoint(norm);
    NormStatistics statistics;
    Value h;
    if (hasProducingGemm(norm.getX())) {
      // Partials that coda-form-epilogues moves into the producer.
      statistics = buildStatistics(norm, rewriter);
      h = foldGamma ? norm.getX()
                    : MulOp::create(rewriter, norm.getLoc(), norm.getType(),
                                    norm.getX(), norm.getGamma())
                          .getResult();
    } else {
      std::tie(h, statistics) =
          buildStandaloneStatistics(norm, foldGamma, rewriter);
    }
    for (GemmOp gemm : consumers) {
      rewriter.setInsertionPoint(gemm);
      SmallVector<Value> weights =
          getWeights(gemm, norm.getGamma(), foldGamma, rewriter);
      correctConsumer(norm, gemm, h, weights, statistics, rewriter);
    }
    rewriter.eraseOp(norm);
    return success();
  }

  bool foldGamma;
};

struct CodaReparameterizeNormsPass
    : public coda::impl::CodaReparameterizeNormsPassBase<
          CodaReparameterizeNormsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateReparameterizeNormsPatterns(patterns, foldGammaIntoWeights);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateReparameterizeNormsPatterns(
    RewritePatternSet &patterns, bool foldGammaIntoWeights) {
  patterns.add<ReparameterizeNorm<RMSNormOp>, ReparameterizeNorm<LayerNormOp>>(
      patterns.getContext(), foldGammaIntoWeights);
}
