//===- Contractions.cpp - linear, matmul and attention to linalg ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::coda;

/// How the operands of a product are laid out.
enum class ProductLayout {
  /// `a : [M, K]` times the transpose of `b : [N, K]`: a linear.
  BTransposed,
  /// `a : [M, K]` times `b : [K, N]`: a matmul.
  Plain,
  /// The transpose of `a : [M, N]` times `b : [M, K]`, reducing over the
  /// rows: a weight gradient.
  ATransposed,
};

/// Returns the product of `a` and `b` laid out as `layout`, in the compute
/// type.
static Value buildProduct(OpBuilder &builder, Location loc, Value a, Value b,
                          ProductLayout layout, Type computeType) {
  MLIRContext *context = builder.getContext();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(b.getType());
  // Iterations (i, j, r): the result is [i, j], r is reduced.
  AffineExpr i = getAffineDimExpr(0, context);
  AffineExpr j = getAffineDimExpr(1, context);
  AffineExpr r = getAffineDimExpr(2, context);
  SmallVector<int64_t, 2> shape;
  SmallVector<AffineExpr, 2> aExprs, bExprs;
  switch (layout) {
  case ProductLayout::BTransposed:
    shape = {aType.getDimSize(0), bType.getDimSize(0)};
    aExprs = {i, r};
    bExprs = {j, r};
    break;
  case ProductLayout::Plain:
    shape = {aType.getDimSize(0), bType.getDimSize(1)};
    aExprs = {i, r};
    bExprs = {r, j};
    break;
  case ProductLayout::ATransposed:
    shape = {aType.getDimSize(1), bType.getDimSize(1)};
    aExprs = {r, i};
    bExprs = {r, j};
    break;
  }
  auto resultType = RankedTensorType::get(shape, computeType);
  Value init = createFilled(builder, loc, resultType, a, 0.0);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, aExprs, context),
                                 AffineMap::get(3, 0, bExprs, context),
                                 AffineMap::get(3, 0, {i, j}, context)};
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, ValueRange{a, b}, init, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](OpBuilder &nested, Location l, ValueRange args) {
        Value lhs = convertScalar(nested, l, args[0], computeType);
        Value rhs = convertScalar(nested, l, args[1], computeType);
        Value product = arith::MulFOp::create(nested, l, lhs, rhs);
        linalg::YieldOp::create(
            nested, l,
            arith::AddFOp::create(nested, l, args[2], product).getResult());
      });
  return generic.getResult(0);
}

namespace {
struct LowerLinear : public CodaLoweringPattern<LinearOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value product = buildProduct(rewriter, loc, adaptor.getX(), adaptor.getW(),
                                 ProductLayout::BTransposed, getComputeType());
    SmallVector<Value> inputs = {product};
    if (adaptor.getBias())
      inputs.push_back(adaptor.getBias());
    Value result = buildBroadcastElementwise(
        rewriter, loc, convert(op.getType()), inputs, getComputeType(),
        [](OpBuilder &b, Location l, ValueRange args) {
          return args.size() == 1
                     ? args[0]
                     : arith::AddFOp::create(b, l, args[0], args[1])
                           .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A product with no bias, `a b` (a matmul) or `aᵀ b` (a weight gradient),
/// rounded once.
template <typename Op, ProductLayout layout>
struct LowerProduct : public CodaLoweringPattern<Op> {
  using CodaLoweringPattern<Op>::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value product = buildProduct(rewriter, loc, adaptor.getA(), adaptor.getB(),
                                 layout, this->getComputeType());
    Value result = buildBroadcastElementwise(
        rewriter, loc, this->convert(op.getType()), product,
        this->getComputeType(),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Naive scaled dot-product attention: per sequence and head, scores,
/// masked softmax, and the weighted sum of values.
struct LowerAttention : public CodaLoweringPattern<AttentionOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Type computeType = getComputeType();
    int64_t heads = op.getNumHeads(), kvHeads = op.getNumKvHeads();
    int64_t headDim = op.getHeadDim(), seqLen = op.getSeqLen();
    int64_t group = heads / kvHeads;
    bool causal = op.getCausal();
    double scale = 1.0 / std::sqrt(double(headDim));

    // [M, H·d] -> [B, S, H, d] with B = M / S.
    Value rows = tensor::DimOp::create(rewriter, loc, adaptor.getQ(), 0);
    Value sequences = arith::DivUIOp::create(
        rewriter, loc, rows,
        arith::ConstantIndexOp::create(rewriter, loc, seqLen));
    auto qType = cast<RankedTensorType>(adaptor.getQ().getType());
    int64_t staticSequences = qType.isDynamicDim(0)
                                  ? ShapedType::kDynamic
                                  : qType.getDimSize(0) / seqLen;
    auto split = [&](Value value, int64_t numHeads) {
      auto type = cast<RankedTensorType>(value.getType());
      auto splitType = RankedTensorType::get(
          {staticSequences, seqLen, numHeads, headDim}, type.getElementType());
      SmallVector<OpFoldResult> shape = {
          staticSequences == ShapedType::kDynamic
              ? OpFoldResult(sequences)
              : OpFoldResult(rewriter.getIndexAttr(staticSequences)),
          rewriter.getIndexAttr(seqLen), rewriter.getIndexAttr(numHeads),
          rewriter.getIndexAttr(headDim)};
      return tensor::ExpandShapeOp::create(
                 rewriter, loc, splitType, value,
                 ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}}, shape)
          .getResult();
    };
    Value q = split(adaptor.getQ(), heads);
    Value k = split(adaptor.getK(), kvHeads);
    Value v = split(adaptor.getV(), kvHeads);

    auto d = [&](unsigned i) { return getAffineDimExpr(i, context); };
    auto parallel = utils::IteratorType::parallel;
    auto reduction = utils::IteratorType::reduction;
    auto convertArgs = [&](OpBuilder &b, Location l, ValueRange args) {
      SmallVector<Value> converted;
      for (Value arg : args)
        converted.push_back(convertScalar(b, l, arg, computeType));
      return converted;
    };
    // The scaled score, or -inf above the diagonal when causal.
    auto masked = [&](OpBuilder &b, Location l, Value score, Value i,
                      Value j) -> Value {
      Value scaled = arith::MulFOp::create(
          b, l, score, createFloat(b, l, computeType, scale));
      if (!causal)
        return scaled;
      Value future =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, j, i);
      return arith::SelectOp::create(
          b, l, future,
          createFloat(b, l, computeType,
                      -std::numeric_limits<double>::infinity()),
          scaled);
    };

    // scores[b, h, i, j] = q[b, i, h, :] · k[b, j, h / group, :]
    auto scoresType = RankedTensorType::get(
        {staticSequences, heads, seqLen, seqLen}, computeType);
    Value scoresInit = createFilled(rewriter, loc, scoresType, q, 0.0);
    Value scores =
        linalg::GenericOp::create(
            rewriter, loc, scoresType, ValueRange{q, k}, scoresInit,
            {AffineMap::get(5, 0, {d(0), d(2), d(1), d(4)}, context),
             AffineMap::get(5, 0, {d(0), d(3), d(1).floorDiv(group), d(4)},
                            context),
             AffineMap::get(5, 0, {d(0), d(1), d(2), d(3)}, context)},
            {parallel, parallel, parallel, parallel, reduction},
            [&](OpBuilder &b, Location l, ValueRange args) {
              SmallVector<Value> in = convertArgs(b, l, args.take_front(2));
              Value product = arith::MulFOp::create(b, l, in[0], in[1]);
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[2], product).getResult());
            })
            .getResult(0);

    // Row maximum and sum of exponentials of the masked, scaled scores.
    auto statType =
        RankedTensorType::get({staticSequences, heads, seqLen}, computeType);
    AffineMap scoreMap = AffineMap::getMultiDimIdentityMap(4, context);
    AffineMap statMap = AffineMap::get(4, 0, {d(0), d(1), d(2)}, context);
    auto reduceScores = [&](Value init, ValueRange extra, bool isMax) {
      SmallVector<Value> inputs = {scores};
      llvm::append_range(inputs, extra);
      SmallVector<AffineMap> maps = {scoreMap};
      maps.append(extra.size(), statMap);
      maps.push_back(statMap);
      return linalg::GenericOp::create(
                 rewriter, loc, statType, inputs, init, maps,
                 {parallel, parallel, parallel, reduction},
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value i = linalg::IndexOp::create(b, l, 2);
                   Value j = linalg::IndexOp::create(b, l, 3);
                   Value s = masked(b, l, args[0], i, j);
                   Value combined =
                       isMax ? arith::MaximumFOp::create(b, l, args.back(), s)
                                   .getResult()
                             : arith::AddFOp::create(
                                   b, l, args.back(),
                                   math::ExpOp::create(
                                       b, l,
                                       arith::SubFOp::create(b, l, s, args[1])))
                                   .getResult();
                   linalg::YieldOp::create(b, l, combined);
                 })
          .getResult(0);
    };
    Value max =
        reduceScores(createFilled(rewriter, loc, statType, q,
                                  -std::numeric_limits<double>::infinity()),
                     {}, /*isMax=*/true);
    Value sum = reduceScores(createFilled(rewriter, loc, statType, q, 0.0), max,
                             /*isMax=*/false);

    // out[b, i, h, e] = sum_j softmax(b, h, i, j) · v[b, j, h / group, e]
    auto splitOutType = RankedTensorType::get(
        {staticSequences, seqLen, heads, headDim}, computeType);
    Value outInit = createFilled(rewriter, loc, splitOutType, q, 0.0);
    Value out =
        linalg::GenericOp::create(
            rewriter, loc, splitOutType, ValueRange{scores, max, sum, v},
            outInit,
            {AffineMap::get(5, 0, {d(0), d(2), d(1), d(4)}, context),
             AffineMap::get(5, 0, {d(0), d(2), d(1)}, context),
             AffineMap::get(5, 0, {d(0), d(2), d(1)}, context),
             AffineMap::get(5, 0, {d(0), d(4), d(2).floorDiv(group), d(3)},
                            context),
             AffineMap::get(5, 0, {d(0), d(1), d(2), d(3)}, context)},
            {parallel, parallel, parallel, parallel, reduction},
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value i = linalg::IndexOp::create(b, l, 1);
              Value j = linalg::IndexOp::create(b, l, 4);
              Value s = masked(b, l, args[0], i, j);
              Value p = arith::DivFOp::create(
                  b, l,
                  math::ExpOp::create(b, l,
                                      arith::SubFOp::create(b, l, s, args[1])),
                  args[2]);
              Value value = convertScalar(b, l, args[3], computeType);
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[4],
                                        arith::MulFOp::create(b, l, p, value))
                      .getResult());
            })
            .getResult(0);

    RankedTensorType resultType = convert(op.getType());
    auto mergedType = RankedTensorType::get(
        {qType.getDimSize(0), heads * headDim}, computeType);
    Value merged = tensor::CollapseShapeOp::create(
        rewriter, loc, mergedType, out,
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    Value result = buildBroadcastElementwise(
        rewriter, loc, resultType, merged, computeType,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::coda::populateContractionLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LowerLinear, LowerProduct<MatmulOp, ProductLayout::Plain>,
               LowerProduct<TransposedMatmulOp, ProductLayout::ATransposed>,
               LowerAttention>(converter, patterns.getContext());
}
