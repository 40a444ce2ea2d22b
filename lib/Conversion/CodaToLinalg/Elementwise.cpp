//===- Elementwise.cpp - elementwise coda ops to linalg -------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::coda;

namespace {
//===----------------------------------------------------------------------===//
// Binary and unary maps
//===----------------------------------------------------------------------===//

/// Lowers an op whose result is a scalar function of its broadcast operands
/// (see ScalarMath.h).
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
          return buildElementwiseScalar(b, loc, op, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

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
    slice = castToType(rewriter, loc, slice, convert(op.getType()));
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
  patterns
      .add<LowerMap<AddOp>, LowerMap<MulOp>, LowerMap<AddOuterOp>,
           LowerMap<MulOuterOp>, LowerMap<ScaleOp>, LowerMap<SiLUOp>,
           LowerMap<ReLUOp>, LowerMap<SigmoidOp>, LowerMap<TanhOp>,
           LowerMap<GELUOp>, LowerMap<SwiGLUOp>, LowerMap<ActivationGradOp>,
           LowerRoPE, LowerSlice, LowerConcat, LowerTensorCast<arith::ExtFOp>,
           LowerTensorCast<arith::TruncFOp>>(converter, context);
}
