//===- Gradients.cpp - coda gradient ops to linalg ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU reference lowering of the ops coda-generate-backward writes
// (CodaGradOps.td) but transposed_matmul, which is with the other products
// in Contractions.cpp: every statistic in the compute type, every result
// rounded once.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "ReductionUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::coda;

/// Which dimension of an `[M, N]` iteration a sum removes.
enum class SumOver { Columns, Rows };

/// Sums `body` over the columns (giving `[M]`) or over the rows (giving
/// `[N]`) of the `[M, N]` iteration of `shape`, reading `inputs` through
/// `maps`, in the compute type.
static Value buildSum(OpBuilder &builder, Location loc, Value shape,
                      SumOver over, ValueRange inputs, ArrayRef<AffineMap> maps,
                      Type computeType, ScalarBody body) {
  MLIRContext *context = builder.getContext();
  auto shapeType = cast<RankedTensorType>(shape.getType());
  bool perRow = over == SumOver::Columns;
  auto resultType = RankedTensorType::get(
      {shapeType.getDimSize(perRow ? 0 : 1)}, computeType);
  Value init = createFilled(builder, loc, resultType, shape, 0.0);
  SmallVector<AffineMap> indexingMaps(maps);
  indexingMaps.push_back(AffineMap::get(
      2, 0, {getAffineDimExpr(perRow ? 0 : 1, context)}, context));
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel,
                                                utils::IteratorType::reduction};
  if (!perRow)
    std::swap(iterators[0], iterators[1]);
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, inputs, init, indexingMaps, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        SmallVector<Value> computeArgs;
        for (Value arg : args.drop_back())
          computeArgs.push_back(convertScalar(b, l, arg, computeType));
        linalg::YieldOp::create(
            b, l,
            arith::AddFOp::create(b, l, args.back(), body(b, l, computeArgs))
                .getResult());
      });
  return generic.getResult(0);
}

/// Rounds the `[N]` vector `values` (compute type) to `type`.
static Value roundVector(OpBuilder &builder, Location loc, Value values,
                         RankedTensorType type, Type computeType) {
  return buildElementwise(
      builder, loc, type, values,
      AffineMap::getMultiDimIdentityMap(1, builder.getContext()), computeType,
      values, [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

namespace {
//===----------------------------------------------------------------------===//
// Reductions over rows
//===----------------------------------------------------------------------===//

struct LowerSumRows : public CodaLoweringPattern<SumRowsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(SumRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    Value sums = buildSum(rewriter, loc, x, SumOver::Rows, x,
                          AffineMap::getMultiDimIdentityMap(2, getContext()),
                          getComputeType(), firstArgument);
    rewriter.replaceOp(op,
                       roundVector(rewriter, loc, sums, convert(op.getType()),
                                   getComputeType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

/// The partials of a norm gradient's GPU form, `type` [P, D], for the
/// column sums `sum` [D]: the first row holds them, the others are 0, so
/// that coda.sum_rows gives `sum` back.
static Value buildFirstRowPartials(OpBuilder &b, Location loc, Value sum,
                                   RankedTensorType type, Value like,
                                   Type computeType) {
  int64_t width = type.getDimSize(1);
  Value partials = createFilled(b, loc, type, like, 0.0);
  Value first = roundVector(
      b, loc, sum, RankedTensorType::get({width}, type.getElementType()),
      computeType);
  return tensor::InsertSliceOp::create(
      b, loc, first, partials,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(width)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// coda.rms_norm_grad, and its GPU form coda.rms_norm_grad_partials: dx
/// (plus the residual) and dgamma, which the GPU form leaves as partials;
/// here the first partial row holds the whole sum and the others are 0.
template <typename OpT>
struct LowerRMSNormGrad : public CodaLoweringPattern<OpT> {
  using CodaLoweringPattern<OpT>::CodaLoweringPattern;
  using OpAdaptor = typename CodaLoweringPattern<OpT>::OpAdaptor;
  static constexpr bool kPartials = std::is_same_v<OpT, RMSNormGradPartialsOp>;

  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = this->getContext();
    Type computeType = this->getComputeType();
    Value x = adaptor.getX(), gamma = adaptor.getGamma(), dy = adaptor.getDy();
    Value residual;
    if constexpr (kPartials)
      residual = adaptor.getResidual();
    int64_t width = op.getX().getType().getDimSize(1);
    double epsilon = op.getEpsilon().convertToDouble();
    // Each row's r, as given (the forward's), or from its sum of squares:
    // `statistic` is one of them and `rstd` makes r of it.
    Value givenRstd;
    if constexpr (!kPartials)
      givenRstd = adaptor.getRstd();
    Value rowStatistic =
        givenRstd ? tensor::CollapseShapeOp::create(
                        rewriter, loc, givenRstd,
                        ArrayRef<ReassociationIndices>{{0, 1}})
                        .getResult()
                  : buildRowSumSquares(rewriter, loc, x, computeType);
    auto rstd = [&](OpBuilder &b, Location l, Value statistic) {
      return givenRstd ? convertScalar(b, l, statistic, computeType)
                       : inverseRootMean(b, l, statistic, width, epsilon);
    };
    // Σ h · dy per row, h = x · r · gamma: given, or summed here.
    Value rowDot;
    if constexpr (!kPartials)
      rowDot = adaptor.getRowDot();
    Value outputDotGrad =
        rowDot
            ? tensor::CollapseShapeOp::create(
                  rewriter, loc, rowDot, ArrayRef<ReassociationIndices>{{0, 1}})
                  .getResult()
            : buildSum(rewriter, loc, x, SumOver::Columns,
                       {x, dy, rowStatistic, gamma},
                       getNormMaps(context, 2, 1, 1), computeType,
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         Value h = arith::MulFOp::create(
                             b, l,
                             arith::MulFOp::create(b, l, args[0],
                                                   rstd(b, l, args[2])),
                             args[3]);
                         return arith::MulFOp::create(b, l, h, args[1]);
                       });
    // r · gamma · dy − x · r² · mean(h · dy) (+ the residual).
    SmallVector<Value> inputs = {x, dy};
    if (residual)
      inputs.push_back(residual);
    unsigned matrices = inputs.size();
    llvm::append_range(inputs, ValueRange{rowStatistic, outputDotGrad, gamma});
    Value dx = buildElementwise(
        rewriter, loc, this->convert(op.getDx().getType()), inputs,
        getNormMaps(context, matrices, 2, 1), computeType, x,
        [&](OpBuilder &b, Location l, ValueRange args) {
          ValueRange statistics = args.drop_front(matrices);
          Value r = rstd(b, l, statistics[0]);
          Value direct = arith::MulFOp::create(
              b, l, arith::MulFOp::create(b, l, r, statistics[2]), args[1]);
          Value mean = arith::DivFOp::create(
              b, l, statistics[1],
              createFloat(b, l, computeType, double(width)));
          Value correction = arith::MulFOp::create(
              b, l, arith::MulFOp::create(b, l, args[0], square(b, l, r)),
              mean);
          Value value = arith::SubFOp::create(b, l, direct, correction);
          return residual ? arith::AddFOp::create(b, l, value, args[2]) : value;
        });
    // Σ_rows dy · x · r.
    Value dgamma =
        buildSum(rewriter, loc, x, SumOver::Rows, {x, dy, rowStatistic},
                 getNormMaps(context, 2, 1, 0), computeType,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   return arith::MulFOp::create(
                       b, l, arith::MulFOp::create(b, l, args[1], args[0]),
                       rstd(b, l, args[2]));
                 });
    if constexpr (kPartials) {
      rewriter.replaceOp(
          op, {buildFirstRowPartials(rewriter, loc, dgamma,
                                     this->convert(op.getPartials().getType()),
                                     x, computeType),
               dx});
    } else {
      rewriter.replaceOp(
          op, {dx, roundVector(rewriter, loc, dgamma,
                               this->convert(op.getDgamma().getType()),
                               computeType)});
    }
    return success();
  }
};

/// coda.layer_norm_grad, and its GPU form coda.layer_norm_grad_partials:
/// dx (plus the residual), dgamma and dbeta, which the GPU form leaves as
/// partials (the first row holding the whole sums).
template <typename OpT>
struct LowerLayerNormGrad : public CodaLoweringPattern<OpT> {
  using CodaLoweringPattern<OpT>::CodaLoweringPattern;
  using OpAdaptor = typename CodaLoweringPattern<OpT>::OpAdaptor;
  static constexpr bool kPartials =
      std::is_same_v<OpT, LayerNormGradPartialsOp>;

  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = this->getContext();
    Type computeType = this->getComputeType();
    Value x = adaptor.getX(), gamma = adaptor.getGamma(), dy = adaptor.getDy();
    Value residual;
    if constexpr (kPartials)
      residual = adaptor.getResidual();
    int64_t width = op.getX().getType().getDimSize(1);
    double epsilon = op.getEpsilon().convertToDouble();
    auto [sums, centred] =
        buildRowMoments(rewriter, loc, x, width, computeType);
    auto mean = [&](OpBuilder &b, Location l, Value sum) {
      return arith::DivFOp::create(
          b, l, sum, createFloat(b, l, computeType, double(width)));
    };
    // x̂ from x and the row's sum and centred sum of squares.
    auto normalized = [&](OpBuilder &b, Location l, Value value, Value sum,
                          Value centredSum) {
      return arith::MulFOp::create(
          b, l, arith::SubFOp::create(b, l, value, mean(b, l, sum)),
          inverseRootMean(b, l, centredSum, width, epsilon));
    };
    // Σ gamma · dy and Σ gamma · dy · x̂ per row.
    Value gradSum =
        buildSum(rewriter, loc, x, SumOver::Columns, {dy, gamma},
                 getNormMaps(context, 1, 0, 1), computeType,
                 [](OpBuilder &b, Location l, ValueRange args) {
                   return arith::MulFOp::create(b, l, args[0], args[1]);
                 });
    Value gradDotNormalized =
        buildSum(rewriter, loc, x, SumOver::Columns,
                 {x, dy, sums, centred, gamma}, getNormMaps(context, 2, 2, 1),
                 computeType, [&](OpBuilder &b, Location l, ValueRange args) {
                   return arith::MulFOp::create(
                       b, l, arith::MulFOp::create(b, l, args[1], args[4]),
                       normalized(b, l, args[0], args[2], args[3]));
                 });
    // r · (g − mean(g) − x̂ · mean(g · x̂)) (+ the residual).
    SmallVector<Value> inputs = {x, dy};
    if (residual)
      inputs.push_back(residual);
    unsigned matrices = inputs.size();
    llvm::append_range(
        inputs, ValueRange{sums, centred, gradSum, gradDotNormalized, gamma});
    Value dx = buildElementwise(
        rewriter, loc, this->convert(op.getDx().getType()), inputs,
        getNormMaps(context, matrices, 4, 1), computeType, x,
        [&](OpBuilder &b, Location l, ValueRange args) {
          ValueRange statistics = args.drop_front(matrices);
          Value xhat = normalized(b, l, args[0], statistics[0], statistics[1]);
          Value g = arith::MulFOp::create(b, l, args[1], statistics[4]);
          Value centredGrad =
              arith::SubFOp::create(b, l, g, mean(b, l, statistics[2]));
          Value projected = arith::SubFOp::create(
              b, l, centredGrad,
              arith::MulFOp::create(b, l, xhat, mean(b, l, statistics[3])));
          Value value = arith::MulFOp::create(
              b, l, inverseRootMean(b, l, statistics[1], width, epsilon),
              projected);
          return residual ? arith::AddFOp::create(b, l, value, args[2]) : value;
        });
    Value dgamma = buildSum(
        rewriter, loc, x, SumOver::Rows, {x, dy, sums, centred},
        getNormMaps(context, 2, 2, 0), computeType,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return arith::MulFOp::create(
              b, l, args[1], normalized(b, l, args[0], args[2], args[3]));
        });
    Value dbeta =
        buildSum(rewriter, loc, x, SumOver::Rows, dy,
                 getNormMaps(context, 1, 0, 0), computeType, firstArgument);
    if constexpr (kPartials) {
      auto type = this->convert(op.getGammaPartials().getType());
      rewriter.replaceOp(
          op,
          {buildFirstRowPartials(rewriter, loc, dgamma, type, x, computeType),
           buildFirstRowPartials(rewriter, loc, dbeta, type, x, computeType),
           dx});
    } else {
      auto vectorType = this->convert(op.getDgamma().getType());
      rewriter.replaceOp(
          op, {dx, roundVector(rewriter, loc, dgamma, vectorType, computeType),
               roundVector(rewriter, loc, dbeta, vectorType, computeType)});
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

/// exp(logit − lse) − [column = target] at the linalg index, in
/// `computeType`; `target` is of `targetType`.
static Value buildSoftmaxMinusTarget(OpBuilder &b, Location l, Value logit,
                                     Value lse, Value target, Type targetType,
                                     Type computeType) {
  Value probability = math::ExpOp::create(
      b, l,
      arith::SubFOp::create(b, l, convertScalar(b, l, logit, computeType),
                            convertScalar(b, l, lse, computeType)));
  Value column = arith::IndexCastOp::create(b, l, targetType,
                                            linalg::IndexOp::create(b, l, 1));
  Value isTarget =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, column, target);
  return arith::SubFOp::create(
      b, l, probability,
      arith::SelectOp::create(b, l, isTarget,
                              createFloat(b, l, computeType, 1.0),
                              createFloat(b, l, computeType, 0.0)));
}

/// What the cross-entropy gradients of one reduction share: whether a
/// row's target counts, the count of such rows and the weighting of a
/// row's values.
class CrossEntropyGradBuilder {
public:
  CrossEntropyGradBuilder(Type targetType, int64_t ignoreIndex,
                          StringRef reduction, Type computeType)
      : targetType(targetType), ignoreIndex(ignoreIndex), reduction(reduction),
        computeType(computeType) {}

  Value isValid(OpBuilder &b, Location l, Value target) const {
    return arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::ne, target,
        arith::ConstantOp::create(b, l,
                                  b.getIntegerAttr(targetType, ignoreIndex)));
  }

  /// The rows not ignored, as a rank-0 tensor in the compute type.
  Value buildCount(OpBuilder &builder, Location loc, Value targets) const {
    MLIRContext *context = builder.getContext();
    auto scalarType = RankedTensorType::get({}, computeType);
    Value zero = linalg::FillOp::create(
                     builder, loc, createFloat(builder, loc, computeType, 0),
                     tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{},
                                             computeType)
                         .getResult())
                     .getResult(0);
    auto count = linalg::GenericOp::create(
        builder, loc, scalarType, targets, zero,
        {AffineMap::getMultiDimIdentityMap(1, context),
         AffineMap::get(1, 0, {}, context)},
        {utils::IteratorType::reduction},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value counted = arith::SelectOp::create(
              b, l, isValid(b, l, args[0]), createFloat(b, l, computeType, 1.0),
              createFloat(b, l, computeType, 0.0));
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], counted).getResult());
        });
    return count.getResult(0);
  }

  /// An `[M, N]` tensor of `resultType` shaped like `like`: each element
  /// `unweighted` times its row's weight, its cotangent (over the count of
  /// rows not ignored for "mean"), and 0 where its target is ignored.
  /// `unweighted` sees the iteration's block arguments of `inputs` (read
  /// through `maps`) and the row's target.
  Value buildWeightedMap(
      OpBuilder &builder, Location loc, RankedTensorType resultType, Value like,
      Value targets, Value dloss, SmallVector<Value> inputs,
      SmallVector<AffineMap> maps,
      function_ref<Value(OpBuilder &, Location, ValueRange, Value)> unweighted)
      const {
    MLIRContext *context = builder.getContext();
    unsigned first =
        appendWeightInputs(builder, loc, targets, dloss, inputs, maps);
    Value init = createEmpty(builder, loc, resultType, like);
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));
    auto generic = linalg::GenericOp::create(
        builder, loc, resultType, inputs, init, maps,
        {utils::IteratorType::parallel, utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value value = buildWeighted(b, l, args, first,
                                      unweighted(b, l, args, args[first]));
          linalg::YieldOp::create(
              b, l, convertScalar(b, l, value, resultType.getElementType()));
        });
    return generic.getResult(0);
  }

private:
  /// Appends what a row's weight reads to the inputs and maps of an
  /// `[M, N]` iteration: the targets, dloss (per row for "none") and, for
  /// "mean", the count of rows not ignored. Returns the targets' position.
  unsigned appendWeightInputs(OpBuilder &builder, Location loc, Value targets,
                              Value dloss, SmallVectorImpl<Value> &inputs,
                              SmallVectorImpl<AffineMap> &maps) const {
    MLIRContext *context = builder.getContext();
    AffineMap rowMap =
        AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
    AffineMap scalarMap = AffineMap::get(2, 0, {}, context);
    unsigned first = inputs.size();
    inputs.append({targets, dloss});
    maps.append({rowMap, reduction == "none" ? rowMap : scalarMap});
    if (reduction == "mean") {
      inputs.push_back(buildCount(builder, loc, targets));
      maps.push_back(scalarMap);
    }
    return first;
  }

  /// `value` times the row's weight, from the iteration's block arguments
  /// that appendWeightInputs added at `first`: its cotangent (over the count
  /// for "mean"); 0 when its target is ignored, whatever `value` is.
  Value buildWeighted(OpBuilder &b, Location l, ValueRange args, unsigned first,
                      Value value) const {
    Value weight = convertScalar(b, l, args[first + 1], computeType);
    if (reduction == "mean")
      weight = arith::DivFOp::create(b, l, weight, args[first + 2]);
    return arith::SelectOp::create(b, l, isValid(b, l, args[first]),
                                   arith::MulFOp::create(b, l, value, weight),
                                   createFloat(b, l, computeType, 0.0));
  }

  Type targetType;
  int64_t ignoreIndex;
  StringRef reduction;
  Type computeType;
};

struct LowerCrossEntropyGrad : public CodaLoweringPattern<CrossEntropyGradOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(CrossEntropyGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Type computeType = getComputeType();
    Value logits = adaptor.getLogits(), targets = adaptor.getTargets();
    Type targetType = op.getTargets().getType().getElementType();
    CrossEntropyGradBuilder grads(targetType, op.getIgnoreIndex(),
                                  op.getReduction(), computeType);

    AffineExpr d0 = getAffineDimExpr(0, context);
    // The saved log-sum-exps ([M, 1]) when given, else the rows' own.
    Value lse = adaptor.getLse();
    AffineMap lseMap =
        lse ? AffineMap::get(2, 0, {d0, getAffineConstantExpr(0, context)},
                             context)
            : AffineMap::get(2, 0, {d0}, context);
    if (!lse)
      lse = buildRowLogSumExp(rewriter, loc, logits, computeType);
    Value grad = grads.buildWeightedMap(
        rewriter, loc, convert(op.getType()), logits, targets,
        adaptor.getDloss(), {logits, lse},
        {AffineMap::getMultiDimIdentityMap(2, context), lseMap},
        [&](OpBuilder &b, Location l, ValueRange args, Value target) {
          return buildSoftmaxMinusTarget(b, l, args[0], args[1], target,
                                         targetType, computeType);
        });
    rewriter.replaceOp(op, grad);
    return success();
  }
};

struct LowerCrossEntropyRowWeights
    : public CodaLoweringPattern<CrossEntropyRowWeightsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(CrossEntropyRowWeightsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value targets = adaptor.getTargets();
    CrossEntropyGradBuilder grads(op.getTargets().getType().getElementType(),
                                  op.getIgnoreIndex(), op.getReduction(),
                                  getComputeType());
    Value weights = grads.buildWeightedMap(
        rewriter, loc, convert(op.getType()), targets, targets,
        adaptor.getDloss(), {}, {},
        [&](OpBuilder &b, Location l, ValueRange, Value) {
          return createFloat(b, l, getComputeType(), 1.0);
        });
    rewriter.replaceOp(op, weights);
    return success();
  }
};

struct LowerSoftmaxTargetGrad
    : public CodaLoweringPattern<SoftmaxTargetGradOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(SoftmaxTargetGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Value logits = adaptor.getLogits();
    Type targetType = op.getTargets().getType().getElementType();
    Type computeType = getComputeType();
    AffineExpr d0 = getAffineDimExpr(0, context);
    AffineMap perRow =
        AffineMap::get(2, 0, {d0, getAffineConstantExpr(0, context)}, context);
    RankedTensorType resultType = convert(op.getType());
    Value init = createEmpty(rewriter, loc, resultType, logits);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType,
        ValueRange{logits, adaptor.getLse(), adaptor.getWeights(),
                   adaptor.getTargets()},
        init,
        {AffineMap::getMultiDimIdentityMap(2, context), perRow, perRow,
         AffineMap::get(2, 0, {d0}, context),
         AffineMap::getMultiDimIdentityMap(2, context)},
        {utils::IteratorType::parallel, utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value value = arith::MulFOp::create(
              b, l,
              buildSoftmaxMinusTarget(b, l, args[0], args[1], args[3],
                                      targetType, computeType),
              convertScalar(b, l, args[2], computeType));
          linalg::YieldOp::create(
              b, l, convertScalar(b, l, value, resultType.getElementType()));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void mlir::coda::populateGradientLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<LowerSumRows, LowerRMSNormGrad<RMSNormGradOp>,
           LowerRMSNormGrad<RMSNormGradPartialsOp>,
           LowerLayerNormGrad<LayerNormGradOp>,
           LowerLayerNormGrad<LayerNormGradPartialsOp>, LowerCrossEntropyGrad,
           LowerCrossEntropyRowWeights, LowerSoftmaxTargetGrad>(
          converter, patterns.getContext());
}
