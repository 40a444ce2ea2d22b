//===- Elementwise.cpp - elementwise coda ops to linalg -------------------===//
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

using namespace mlir;
using namespace mlir::coda;

//===----------------------------------------------------------------------===//
// Scalar math
//===----------------------------------------------------------------------===//

/// 1 / (1 + exp(-x)).
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = createFloat(b, loc, x.getType(), 1.0);
  Value negated = arith::NegFOp::create(b, loc, x);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

/// x · sigmoid(x).
static Value silu(OpBuilder &b, Location loc, Value x) {
  return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
}

/// GELU as torch.nn.functional.gelu: the erf form, or the tanh form.
static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhForm) {
  Type type = x.getType();
  Value half = createFloat(b, loc, type, 0.5);
  Value one = createFloat(b, loc, type, 1.0);
  Value inner;
  if (tanhForm) {
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, createFloat(b, loc, type, 0.044715),
                              cube));
    Value scaled = arith::MulFOp::create(
        b, loc, createFloat(b, loc, type, std::sqrt(2.0 / M_PI)), poly);
    inner = math::TanhOp::create(b, loc, scaled);
  } else {
    Value scaled = arith::MulFOp::create(
        b, loc, x, createFloat(b, loc, type, 1.0 / std::sqrt(2.0)));
    inner = math::ErfOp::create(b, loc, scaled);
  }
  Value factor = arith::AddFOp::create(b, loc, one, inner);
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, half, x),
                               factor);
}

namespace {
//===----------------------------------------------------------------------===//
// Binary and unary maps
//===----------------------------------------------------------------------===//

/// Lowers an op whose result is a scalar function of its broadcast operands.
template <typename Op>
struct LowerMap : public CodaLoweringPattern<Op> {
  using CodaLoweringPattern<Op>::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = buildBroadcastElementwise(
        rewriter, op.getLoc(), this->convert(op.getType()),
        adaptor.getOperands(), this->getComputeType(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return compute(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  static Value compute(Op op, OpBuilder &b, Location loc, ValueRange args);
};
} // namespace

template <>
Value LowerMap<AddOp>::compute(AddOp, OpBuilder &b, Location loc,
                               ValueRange args) {
  return arith::AddFOp::create(b, loc, args[0], args[1]);
}
template <>
Value LowerMap<MulOp>::compute(MulOp, OpBuilder &b, Location loc,
                               ValueRange args) {
  return arith::MulFOp::create(b, loc, args[0], args[1]);
}
template <>
Value LowerMap<AddOuterOp>::compute(AddOuterOp, OpBuilder &b, Location loc,
                                    ValueRange args) {
  return arith::AddFOp::create(b, loc, args[0],
                               arith::MulFOp::create(b, loc, args[1], args[2]));
}
template <>
Value LowerMap<ScaleOp>::compute(ScaleOp op, OpBuilder &b, Location loc,
                                 ValueRange args) {
  Value factor =
      createFloat(b, loc, args[0].getType(), op.getFactor().convertToDouble());
  return arith::MulFOp::create(b, loc, factor, args[0]);
}
template <>
Value LowerMap<SiLUOp>::compute(SiLUOp, OpBuilder &b, Location loc,
                                ValueRange args) {
  return silu(b, loc, args[0]);
}
template <>
Value LowerMap<ReLUOp>::compute(ReLUOp, OpBuilder &b, Location loc,
                                ValueRange args) {
  return arith::MaximumFOp::create(b, loc, args[0],
                                   createFloat(b, loc, args[0].getType(), 0.0));
}
template <>
Value LowerMap<SigmoidOp>::compute(SigmoidOp, OpBuilder &b, Location loc,
                                   ValueRange args) {
  return sigmoid(b, loc, args[0]);
}
template <>
Value LowerMap<TanhOp>::compute(TanhOp, OpBuilder &b, Location loc,
                                ValueRange args) {
  return math::TanhOp::create(b, loc, args[0]);
}
template <>
Value LowerMap<GELUOp>::compute(GELUOp op, OpBuilder &b, Location loc,
                                ValueRange args) {
  return gelu(b, loc, args[0], op.getApproximate() == "tanh");
}
template <>
Value LowerMap<SwiGLUOp>::compute(SwiGLUOp, OpBuilder &b, Location loc,
                                  ValueRange args) {
  return arith::MulFOp::create(b, loc, silu(b, loc, args[0]), args[1]);
}

namespace {
//===----------------------------------------------------------------------===//
// RoPE
//===----------------------------------------------------------------------===//

/// Each output element reads its own value and its partner's, and the angle
/// of its pair, by index.
struct LowerRoPE : public CodaLoweringPattern<RoPEOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(RoPEOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convert(op.getType());
    Type computeType = getComputeType();
    Value x = adaptor.getX(), cos = adaptor.getCos(), sin = adaptor.getSin();
    int64_t headDim = op.getHeadDim();
    bool half = op.getStyle() == "half";

    Value init = createEmpty(rewriter, loc, resultType, x);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange(), init,
        AffineMap::getMultiDimIdentityMap(2, getContext()),
        {utils::IteratorType::parallel, utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange) {
          auto index = [&](int64_t v) {
            return arith::ConstantIndexOp::create(b, l, v).getResult();
          };
          Value row = linalg::IndexOp::create(b, l, 0);
          Value column = linalg::IndexOp::create(b, l, 1);
          Value inHead = arith::RemUIOp::create(b, l, column, index(headDim));
          Value first, pair, partner;
          if (half) {
            first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                          inHead, index(headDim / 2));
            pair = arith::SelectOp::create(
                b, l, first, inHead,
                arith::SubIOp::create(b, l, inHead, index(headDim / 2)));
            partner = arith::SelectOp::create(
                b, l, first,
                arith::AddIOp::create(b, l, column, index(headDim / 2)),
                arith::SubIOp::create(b, l, column, index(headDim / 2)));
          } else {
            Value parity = arith::RemUIOp::create(b, l, inHead, index(2));
            first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                          parity, index(0));
            pair = arith::DivUIOp::create(b, l, inHead, index(2));
            partner = arith::SelectOp::create(
                b, l, first, arith::AddIOp::create(b, l, column, index(1)),
                arith::SubIOp::create(b, l, column, index(1)));
          }
          auto read = [&](Value tensor, Value i, Value j) {
            Value element =
                tensor::ExtractOp::create(b, l, tensor, ValueRange{i, j});
            return convertScalar(b, l, element, computeType);
          };
          Value own = read(x, row, column);
          Value other = read(x, row, partner);
          Value c = read(cos, row, pair), s = read(sin, row, pair);
          // First of a pair: x1 cos - x2 sin; second: x2 cos + x1 sin.
          Value ownCos = arith::MulFOp::create(b, l, own, c);
          Value otherSin = arith::MulFOp::create(b, l, other, s);
          Value value = arith::SelectOp::create(
              b, l, first, arith::SubFOp::create(b, l, ownCos, otherSin),
              arith::AddFOp::create(b, l, ownCos, otherSin));
          linalg::YieldOp::create(
              b, l, convertScalar(b, l, value, resultType.getElementType()));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slice and concat
//===----------------------------------------------------------------------===//

struct LowerSlice : public CodaLoweringPattern<SliceOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(op.getOffset())};
    SmallVector<OpFoldResult> sizes = {
        tensor::getMixedSize(rewriter, loc, x, 0),
        rewriter.getIndexAttr(op.getSize())};
    SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, x, offsets,
                                                 sizes, strides);
    RankedTensorType resultType = convert(op.getType());
    if (slice.getType() != resultType)
      slice = tensor::CastOp::create(rewriter, loc, resultType, slice);
    rewriter.replaceOp(op, slice);
    return success();
  }
};

struct LowerConcat : public CodaLoweringPattern<ConcatOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convert(op.getType());
    Value first = adaptor.getInputs().front();
    Value result = createEmpty(rewriter, loc, resultType, first);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      int64_t width = cast<RankedTensorType>(input.getType()).getDimSize(1);
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(offset)};
      SmallVector<OpFoldResult> sizes = {
          tensor::getMixedSize(rewriter, loc, input, 0),
          rewriter.getIndexAttr(width)};
      SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset += width;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// arith.extf and arith.truncf on tensors
//===----------------------------------------------------------------------===//

/// Widening or rounding a whole tensor, as coda-inline-epilogues writes it.
template <typename CastOp>
struct LowerTensorCast : public OpConversionPattern<CastOp> {
  using OpConversionPattern<CastOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CastOp op, typename CastOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "not a cast of a ranked tensor");
    Value input = adaptor.getIn();
    if (input.getType() == resultType) {
      rewriter.replaceOp(op, input);
      return success();
    }
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(
        resultType.getRank(), rewriter.getContext())};
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, input, maps,
        resultType.getElementType(), input,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::coda::populateElementwiseLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      LowerMap<AddOp>, LowerMap<MulOp>, LowerMap<AddOuterOp>, LowerMap<ScaleOp>,
      LowerMap<SiLUOp>, LowerMap<ReLUOp>, LowerMap<SigmoidOp>, LowerMap<TanhOp>,
      LowerMap<GELUOp>, LowerMap<SwiGLUOp>, LowerRoPE, LowerSlice, LowerConcat,
      LowerTensorCast<arith::ExtFOp>, LowerTensorCast<arith::TruncFOp>>(
      converter, context);
}
