//===- Reductions.cpp - norms, partials and the loss to linalg ------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "ReductionUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::coda;

/// Reduces per-row losses `lse − picked` (0 where the target is
/// `ignoreIndex`) as `reduction` does: "none", "sum", or "mean" over the rows
/// not ignored (NaN when every row is, as torch).
static Value buildLoss(OpBuilder &builder, Location loc, Value lse,
                       Value picked, Value targets, int64_t ignoreIndex,
                       StringRef reduction, RankedTensorType resultType,
                       Type computeType) {
  MLIRContext *context = builder.getContext();
  auto rowType = cast<RankedTensorType>(lse.getType());
  AffineMap rowMap = AffineMap::getMultiDimIdentityMap(1, context);
  Value lossInit = createEmpty(builder, loc, rowType, lse);
  Value countInit = createEmpty(builder, loc, rowType, lse);
  auto perRow = linalg::GenericOp::create(
      builder, loc, TypeRange{rowType, rowType},
      ValueRange{lse, picked, targets}, ValueRange{lossInit, countInit},
      SmallVector<AffineMap>(5, rowMap), {utils::IteratorType::parallel},
      [&](OpBuilder &b, Location l, ValueRange args) {
        Type targetType = args[2].getType();
        Value valid = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::ne, args[2],
            arith::ConstantOp::create(
                b, l, b.getIntegerAttr(targetType, ignoreIndex)));
        Value zero = createFloat(b, l, computeType, 0.0);
        Value loss = arith::SelectOp::create(
            b, l, valid, arith::SubFOp::create(b, l, args[0], args[1]), zero);
        Value counted = arith::SelectOp::create(
            b, l, valid, createFloat(b, l, computeType, 1.0), zero);
        linalg::YieldOp::create(b, l, ValueRange{loss, counted});
      });
  Value losses = perRow.getResult(0), counts = perRow.getResult(1);

  if (reduction == "none") {
    Value result = buildElementwise(
        builder, loc,
        resultType.clone(ArrayRef<int64_t>{rowType.getDimSize(0)}), losses,
        rowMap, resultType.getElementType(), losses,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    result = castToType(builder, loc, result, resultType);
    return result;
  }

  auto scalarType = RankedTensorType::get({}, computeType);
  Value zero = createFloat(builder, loc, computeType, 0.0);
  auto filledScalar = [&]() {
    Value empty =
        tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{}, computeType);
    return linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
  };
  AffineMap toScalar = AffineMap::get(1, 0, {}, context);
  auto totals = linalg::GenericOp::create(
      builder, loc, TypeRange{scalarType, scalarType},
      ValueRange{losses, counts}, ValueRange{filledScalar(), filledScalar()},
      {rowMap, rowMap, toScalar, toScalar}, {utils::IteratorType::reduction},
      [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(
            b, l,
            ValueRange{arith::AddFOp::create(b, l, args[2], args[0]),
                       arith::AddFOp::create(b, l, args[3], args[1])});
      });
  bool mean = reduction == "mean";
  return buildElementwise(
      builder, loc, resultType, {totals.getResult(0), totals.getResult(1)},
      SmallVector<AffineMap>(2, AffineMap::get(0, 0, {}, context)), computeType,
      Value(), [&](OpBuilder &b, Location l, ValueRange args) {
        return mean ? arith::DivFOp::create(b, l, args[0], args[1]).getResult()
                    : args[0];
      });
}

namespace {
//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

struct LowerRMSNorm : public CodaLoweringPattern<RMSNormOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(RMSNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    int64_t width = op.getType().getDimSize(1);
    double epsilon = op.getEpsilon().convertToDouble();
    Value sumSquares = buildRowSumSquares(rewriter, loc, x, computeType);
    Value result = buildElementwise(
        rewriter, loc, convert(op.getType()),
        {x, sumSquares, adaptor.getGamma()}, getNormMaps(getContext(), 1, 1, 1),
        computeType, x, [&](OpBuilder &b, Location l, ValueRange args) {
          Value rstd = inverseRootMean(b, l, args[1], width, epsilon);
          return arith::MulFOp::create(
              b, l, arith::MulFOp::create(b, l, args[0], rstd), args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerLayerNorm : public CodaLoweringPattern<LayerNormOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    int64_t width = op.getType().getDimSize(1);
    double epsilon = op.getEpsilon().convertToDouble();
    auto mean = [&](OpBuilder &b, Location l, Value sum) {
      return arith::DivFOp::create(
          b, l, sum, createFloat(b, l, computeType, double(width)));
    };
    auto [sums, centred] =
        buildRowMoments(rewriter, loc, x, width, computeType);
    Value result = buildElementwise(
        rewriter, loc, convert(op.getType()),
        {x, sums, centred, adaptor.getGamma(), adaptor.getBeta()},
        getNormMaps(getContext(), 1, 2, 2), computeType, x,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value rstd = inverseRootMean(b, l, args[2], width, epsilon);
          Value normalized = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, args[0], mean(b, l, args[1])),
              rstd);
          return arith::AddFOp::create(
              b, l, arith::MulFOp::create(b, l, normalized, args[3]), args[4]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Partial reductions
//===----------------------------------------------------------------------===//

/// Reduces blocks of `tileN` columns of `x` into `[M, ceil(N / tileN)]`:
/// each element of a block (and the block's entry of `blockInputs`, `[M, T]`
/// tensors) maps to the reduced value; columns past `N` contribute the
/// identity.
static Value buildBlockReduction(OpBuilder &builder, Location loc, Value x,
                                 ValueRange blockInputs, int64_t tileN,
                                 Type computeType, ReductionKind kind,
                                 ScalarBody map) {
  MLIRContext *context = builder.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t width = xType.getDimSize(1);
  int64_t blocks = llvm::divideCeil(width, tileN);
  auto resultType =
      RankedTensorType::get({xType.getDimSize(0), blocks}, computeType);
  double identity = kind == ReductionKind::Sum
                        ? 0.0
                        : -std::numeric_limits<double>::infinity();
  Value init = createFilled(builder, loc, resultType, x, identity);
  // A tensor of the block width gives the reduction loop its extent.
  Value lanes = tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{tileN},
                                        computeType);

  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineExpr d1 = getAffineDimExpr(1, context);
  AffineExpr d2 = getAffineDimExpr(2, context);
  SmallVector<Value> inputs = {lanes};
  llvm::append_range(inputs, blockInputs);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {d2}, context)};
  maps.append(blockInputs.size(), AffineMap::get(3, 0, {d0, d1}, context));
  maps.push_back(AffineMap::get(3, 0, {d0, d1}, context));
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, inputs, init, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value row = linalg::IndexOp::create(b, l, 0);
        Value block = linalg::IndexOp::create(b, l, 1);
        Value lane = linalg::IndexOp::create(b, l, 2);
        Value column = arith::AddIOp::create(
            b, l,
            arith::MulIOp::create(b, l, block,
                                  arith::ConstantIndexOp::create(b, l, tileN)),
            lane);
        Value inside =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, column,
                                  arith::ConstantIndexOp::create(b, l, width));
        // Clamp the index so the read stays in bounds; the value is not used
        // past the last column.
        Value safeColumn = arith::SelectOp::create(
            b, l, inside, column,
            arith::ConstantIndexOp::create(b, l, width - 1));
        Value element = convertScalar(
            b, l,
            tensor::ExtractOp::create(b, l, x, ValueRange{row, safeColumn}),
            computeType);
        SmallVector<Value> mapArgs = {element};
        for (Value arg : args.drop_front().drop_back())
          mapArgs.push_back(arg);
        Value value =
            arith::SelectOp::create(b, l, inside, map(b, l, mapArgs),
                                    createFloat(b, l, computeType, identity));
        Value combined =
            kind == ReductionKind::Sum
                ? arith::AddFOp::create(b, l, args.back(), value).getResult()
                : arith::MaximumFOp::create(b, l, args.back(), value)
                      .getResult();
        linalg::YieldOp::create(b, l, combined);
      });
  return generic.getResult(0);
}

/// Returns the number of columns of block `block` (an index) when `width`
/// columns are cut into blocks of `tileN`: `tileN`, or what is left for the
/// last block, as a value of `type`.
static Value buildBlockWidth(OpBuilder &b, Location l, Value block,
                             int64_t tileN, int64_t width, Type type) {
  Value first = arith::MulIOp::create(
      b, l, block, arith::ConstantIndexOp::create(b, l, tileN));
  Value left = arith::SubIOp::create(
      b, l, arith::ConstantIndexOp::create(b, l, width), first);
  Value columns = arith::MinSIOp::create(
      b, l, left, arith::ConstantIndexOp::create(b, l, tileN));
  Value integer = arith::IndexCastOp::create(b, l, b.getI64Type(), columns);
  return arith::SIToFPOp::create(b, l, type, integer);
}

struct LowerPartialReduce : public CodaLoweringPattern<PartialReduceOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(PartialReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    int64_t tileN = op.getTileNOrDefault();
    StringRef kind = op.getKind();
    Value result;
    if (kind == "sum") {
      result = buildBlockReduction(rewriter, loc, x, {}, tileN, computeType,
                                   ReductionKind::Sum, firstArgument);
    } else if (kind == "sum_squares") {
      result = buildBlockReduction(
          rewriter, loc, x, {}, tileN, computeType, ReductionKind::Sum,
          [](OpBuilder &b, Location l, ValueRange args) {
            return square(b, l, args[0]);
          });
    } else if (kind == "centered_sum_squares") {
      // The block means first, then the squared deviations from them.
      int64_t width = cast<RankedTensorType>(x.getType()).getDimSize(1);
      Value sums = buildBlockReduction(rewriter, loc, x, {}, tileN, computeType,
                                       ReductionKind::Sum, firstArgument);
      auto blockType = cast<RankedTensorType>(sums.getType());
      Value means = buildElementwise(
          rewriter, loc, blockType, sums,
          AffineMap::getMultiDimIdentityMap(2, getContext()), computeType, sums,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value block = linalg::IndexOp::create(b, l, 1);
            return arith::DivFOp::create(
                b, l, args[0],
                buildBlockWidth(b, l, block, tileN, width, computeType));
          });
      result = buildBlockReduction(
          rewriter, loc, x, means, tileN, computeType, ReductionKind::Sum,
          [](OpBuilder &b, Location l, ValueRange args) {
            return square(b, l, arith::SubFOp::create(b, l, args[0], args[1]));
          });
    } else if (kind == "max") {
      result = buildBlockReduction(rewriter, loc, x, {}, tileN, computeType,
                                   ReductionKind::Max, firstArgument);
    } else {
      // lse: max + log(sum(exp(x - max))) per block.
      result = buildLogSumExp(
          rewriter, loc, computeType,
          [&](ValueRange blockInputs, ReductionKind reduction, ScalarBody map) {
            return buildBlockReduction(rewriter, loc, x, blockInputs, tileN,
                                       computeType, reduction, map);
          });
    }
    result = castToType(rewriter, loc, result, convert(op.getType()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// coda.partial_sum_rows: partial[p, n] = Σ x[p · B + k, n] over the
/// block's rows k < B inside x.
struct LowerPartialSumRows : public CodaLoweringPattern<PartialSumRowsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(PartialSumRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    int64_t blockRows = static_cast<int64_t>(op.getBlockRows());
    int64_t width = cast<RankedTensorType>(x.getType()).getDimSize(1);
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value rows = tensor::DimOp::create(rewriter, loc, x, 0);
    Value blocks = arith::DivUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, rows, index(blockRows - 1)),
        index(blockRows));
    auto resultType =
        RankedTensorType::get({ShapedType::kDynamic, width}, computeType);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, resultType, ValueRange{blocks});
    Value init =
        linalg::FillOp::create(
            rewriter, loc, createFloat(rewriter, loc, computeType, 0.0), empty)
            .getResult(0);
    // A tensor of the block's rows gives the reduction loop its extent.
    Value lanes = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{blockRows}, computeType);
    AffineExpr d0 = getAffineDimExpr(0, context);
    AffineExpr d1 = getAffineDimExpr(1, context);
    AffineExpr d2 = getAffineDimExpr(2, context);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, lanes, init,
        {AffineMap::get(3, 0, {d2}, context),
         AffineMap::get(3, 0, {d0, d1}, context)},
        {utils::IteratorType::parallel, utils::IteratorType::parallel,
         utils::IteratorType::reduction},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value row = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(
                  b, l, linalg::IndexOp::create(b, l, 0),
                  arith::ConstantIndexOp::create(b, l, blockRows)),
              linalg::IndexOp::create(b, l, 2));
          Value inside =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, row, rows);
          // Clamped so the read stays in bounds; unused past the last row.
          Value safeRow = arith::SelectOp::create(
              b, l, inside, row,
              arith::SubIOp::create(b, l, rows,
                                    arith::ConstantIndexOp::create(b, l, 1)));
          Value element = convertScalar(
              b, l,
              tensor::ExtractOp::create(
                  b, l, x,
                  ValueRange{safeRow, linalg::IndexOp::create(b, l, 1)}),
              computeType);
          Value term = arith::SelectOp::create(
              b, l, inside, element, createFloat(b, l, computeType, 0.0));
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], term).getResult());
        });
    rewriter.replaceOp(op, castToType(rewriter, loc, generic.getResult(0),
                                      convert(op.getType())));
    return success();
  }
};

struct LowerReducePartials : public CodaLoweringPattern<ReducePartialsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(ReducePartialsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    StringRef kind = op.getKind();
    ValueRange partials = adaptor.getPartials();
    auto sumOf = [&](Value p) {
      return buildRowReduction(rewriter, loc, p, {}, computeType,
                               ReductionKind::Sum, firstArgument);
    };
    auto rowMaps = [&](unsigned count) {
      AffineMap map = AffineMap::getMultiDimIdentityMap(1, getContext());
      return SmallVector<AffineMap>(count, map);
    };
    auto rowType = [&](Value p) {
      return RankedTensorType::get(
          {cast<RankedTensorType>(p.getType()).getDimSize(0)}, computeType);
    };
    int64_t count = op.getCount() ? int64_t(*op.getCount()) : 1;
    double epsilon = op.getEpsilon() ? op.getEpsilon()->convertToDouble() : 0;

    SmallVector<Value> rows;
    if (kind == "sum") {
      rows.push_back(sumOf(partials[0]));
    } else if (kind == "max") {
      rows.push_back(buildRowReduction(rewriter, loc, partials[0], {},
                                       computeType, ReductionKind::Max,
                                       firstArgument));
    } else if (kind == "lse") {
      rows.push_back(
          buildRowLogSumExp(rewriter, loc, partials[0], computeType));
    } else if (kind == "rstd") {
      Value sum = sumOf(partials[0]);
      rows.push_back(buildElementwise(
          rewriter, loc, rowType(sum), sum, rowMaps(1), computeType, sum,
          [&](OpBuilder &b, Location l, ValueRange args) {
            return inverseRootMean(b, l, args[0], count, epsilon);
          }));
    } else {
      // mean_rstd, combining blocks as Chan et al. do: the centered sums
      // plus each block's mean offset, nⱼ (sⱼ / nⱼ − μ)², so no large terms
      // cancel.
      int64_t tileN = op.getTileNOrDefault();
      Value sum = sumOf(partials[0]);
      auto meanOf = [&](OpBuilder &b, Location l, Value s) {
        return arith::DivFOp::create(
            b, l, s, createFloat(b, l, computeType, double(count)));
      };
      Value mean = buildElementwise(
          rewriter, loc, rowType(sum), sum, rowMaps(1), computeType, sum,
          [&](OpBuilder &b, Location l, ValueRange args) {
            return meanOf(b, l, args[0]);
          });
      MLIRContext *context = getContext();
      AffineMap blockMap = AffineMap::getMultiDimIdentityMap(2, context);
      AffineMap rowMap =
          AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
      Value init = createFilled(rewriter, loc, rowType(sum), sum, 0.0);
      Value deviations =
          linalg::GenericOp::create(
              rewriter, loc, rowType(sum),
              ValueRange{partials[0], partials[1], mean}, init,
              {blockMap, blockMap, rowMap, rowMap},
              {utils::IteratorType::parallel, utils::IteratorType::reduction},
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value block = linalg::IndexOp::create(b, l, 1);
                Value columns =
                    buildBlockWidth(b, l, block, tileN, count, computeType);
                Value offset = arith::SubFOp::create(
                    b, l, arith::DivFOp::create(b, l, args[0], columns),
                    args[2]);
                Value term = arith::AddFOp::create(
                    b, l, args[1],
                    arith::MulFOp::create(b, l, columns, square(b, l, offset)));
                linalg::YieldOp::create(
                    b, l,
                    arith::AddFOp::create(b, l, args[3], term).getResult());
              })
              .getResult(0);
      rows.push_back(mean);
      rows.push_back(buildElementwise(
          rewriter, loc, rowType(sum), deviations, rowMaps(1), computeType,
          deviations, [&](OpBuilder &b, Location l, ValueRange args) {
            return inverseRootMean(b, l, args[0], count, epsilon);
          }));
    }

    rewriter.replaceOp(op, toColumns(rewriter, loc, rows, op.getResults()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

struct LowerLogSumExp : public CodaLoweringPattern<LogSumExpOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(LogSumExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value rows = buildRowLogSumExp(rewriter, op.getLoc(), adaptor.getX(),
                                   getComputeType());
    rewriter.replaceOp(
        op, toColumns(rewriter, op.getLoc(), rows, op->getResults()));
    return success();
  }
};

struct LowerCrossEntropy : public CodaLoweringPattern<CrossEntropyOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(CrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value logits = adaptor.getLogits(), targets = adaptor.getTargets();
    auto logitsType = cast<RankedTensorType>(logits.getType());
    int64_t classes = logitsType.getDimSize(1);
    // The target logit of each row, read through a clamped index: a target
    // outside [0, V) is rejected before it reaches a kernel.
    auto rowType =
        RankedTensorType::get({logitsType.getDimSize(0)}, computeType);
    AffineMap rowMap = AffineMap::getMultiDimIdentityMap(1, getContext());
    Value pickedInit = createEmpty(rewriter, loc, rowType, logits);
    Value picked =
        linalg::GenericOp::create(
            rewriter, loc, rowType, targets, pickedInit,
            SmallVector<AffineMap>(2, rowMap), {utils::IteratorType::parallel},
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value row = linalg::IndexOp::create(b, l, 0);
              Value index =
                  arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
              index = arith::MaxSIOp::create(
                  b, l, index, arith::ConstantIndexOp::create(b, l, 0));
              index = arith::MinSIOp::create(
                  b, l, index,
                  arith::ConstantIndexOp::create(b, l, classes - 1));
              Value logit = tensor::ExtractOp::create(b, l, logits,
                                                      ValueRange{row, index});
              linalg::YieldOp::create(b, l,
                                      convertScalar(b, l, logit, computeType));
            })
            .getResult(0);
    Value lse = buildRowLogSumExp(rewriter, loc, logits, computeType);
    rewriter.replaceOp(op, buildLoss(rewriter, loc, lse, picked, targets,
                                     op.getIgnoreIndex(), op.getReduction(),
                                     convert(op.getType()), computeType));
    return success();
  }
};

struct LowerCrossEntropyFromPartials
    : public CodaLoweringPattern<CrossEntropyFromPartialsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(CrossEntropyFromPartialsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value lse = buildRowLogSumExp(rewriter, loc, adaptor.getLse(), computeType);
    Value picked =
        buildRowReduction(rewriter, loc, adaptor.getTargetLogits(), {},
                          computeType, ReductionKind::Sum, firstArgument);
    rewriter.replaceOp(op, buildLoss(rewriter, loc, lse, picked,
                                     adaptor.getTargets(), op.getIgnoreIndex(),
                                     op.getReduction(), convert(op.getType()),
                                     computeType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Partial target logits
//===----------------------------------------------------------------------===//

struct LowerPartialGather : public CodaLoweringPattern<PartialGatherOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(PartialGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t width = xType.getDimSize(1);
    int64_t tileN = op.getTileN() ? int64_t(*op.getTileN())
                                  : PartialReduceOp::kDefaultTileN;
    int64_t blocks = llvm::divideCeil(width, tileN);
    auto type =
        RankedTensorType::get({xType.getDimSize(0), blocks}, computeType);
    MLIRContext *context = getContext();
    AffineExpr d0 = getAffineDimExpr(0, context);
    Value init = createEmpty(rewriter, loc, type, x);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, type, adaptor.getTargets(), init,
            {AffineMap::get(2, 0, {d0}, context),
             AffineMap::getMultiDimIdentityMap(2, context)},
            {utils::IteratorType::parallel, utils::IteratorType::parallel},
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value row = linalg::IndexOp::create(b, l, 0);
              Value block = linalg::IndexOp::create(b, l, 1);
              Value blockIndex =
                  arith::IndexCastOp::create(b, l, b.getI64Type(), block);
              Value column = args[0];
              if (!column.getType().isInteger(64))
                column = arith::ExtSIOp::create(b, l, b.getI64Type(), column);
              Value first = arith::MulIOp::create(
                  b, l, blockIndex,
                  arith::ConstantOp::create(b, l, b.getI64IntegerAttr(tileN)));
              Value end = arith::MinSIOp::create(
                  b, l,
                  arith::AddIOp::create(b, l, first,
                                        arith::ConstantOp::create(
                                            b, l, b.getI64IntegerAttr(tileN))),
                  arith::ConstantOp::create(b, l, b.getI64IntegerAttr(width)));
              Value inside = arith::AndIOp::create(
                  b, l,
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, column,
                                        first),
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, column,
                                        end));
              // Read a clamped column; the value is used only inside.
              Value safe = arith::SelectOp::create(b, l, inside, column, first);
              Value index =
                  arith::IndexCastOp::create(b, l, b.getIndexType(), safe);
              Value element = convertScalar(
                  b, l,
                  tensor::ExtractOp::create(b, l, x, ValueRange{row, index}),
                  computeType);
              linalg::YieldOp::create(
                  b, l,
                  arith::SelectOp::create(b, l, inside, element,
                                          createFloat(b, l, computeType, 0.0))
                      .getResult());
            })
            .getResult(0);
    result = castToType(rewriter, loc, result, convert(op.getType()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Standalone norm statistics
//===----------------------------------------------------------------------===//

struct LowerNormStatistics : public CodaLoweringPattern<NormStatisticsOp> {
  using CodaLoweringPattern::CodaLoweringPattern;

  LogicalResult
  matchAndRewrite(NormStatisticsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type computeType = getComputeType();
    Value x = adaptor.getX();
    int64_t width = cast<RankedTensorType>(x.getType()).getDimSize(1);
    double epsilon = op.getEpsilon().convertToDouble();
    bool layer = op.getKind() == "layer_norm";
    auto rowType = RankedTensorType::get(
        {cast<RankedTensorType>(x.getType()).getDimSize(0)}, computeType);
    AffineMap rowMap = AffineMap::getMultiDimIdentityMap(1, getContext());
    auto mean = [&](OpBuilder &b, Location l, Value sum) {
      return arith::DivFOp::create(
          b, l, sum, createFloat(b, l, computeType, double(width)));
    };

    SmallVector<Value> statistics;
    Value sums;
    if (layer) {
      auto [rowSums, centred] =
          buildRowMoments(rewriter, loc, x, width, computeType);
      sums = rowSums;
      statistics.push_back(buildElementwise(
          rewriter, loc, rowType, centred, rowMap, computeType, centred,
          [&](OpBuilder &b, Location l, ValueRange args) {
            return inverseRootMean(b, l, args[0], width, epsilon);
          }));
      statistics.push_back(buildElementwise(
          rewriter, loc, rowType, sums, rowMap, computeType, sums,
          [&](OpBuilder &b, Location l, ValueRange args) {
            return mean(b, l, args[0]);
          }));
    } else {
      Value sumSquares = buildRowSumSquares(rewriter, loc, x, computeType);
      statistics.push_back(buildElementwise(
          rewriter, loc, rowType, sumSquares, rowMap, computeType, sumSquares,
          [&](OpBuilder &b, Location l, ValueRange args) {
            return inverseRootMean(b, l, args[0], width, epsilon);
          }));
    }

    // h = x · γ, centered for LayerNorm: (x − μ) · γ.
    SmallVector<Value> results;
    if (adaptor.getGamma()) {
      SmallVector<Value> inputs = {x, adaptor.getGamma()};
      if (layer)
        inputs.push_back(sums);
      SmallVector<AffineMap> maps = getNormMaps(getContext(), 1, 0, 1);
      if (layer)
        maps.push_back(AffineMap::get(2, 0, {getAffineDimExpr(0, getContext())},
                                      getContext()));
      results.push_back(buildElementwise(
          rewriter, loc, convert(op.getResult(0).getType()), inputs, maps,
          computeType, x, [&](OpBuilder &b, Location l, ValueRange args) {
            Value value = args[0];
            if (layer)
              value = arith::SubFOp::create(b, l, value, mean(b, l, args[2]));
            return arith::MulFOp::create(b, l, value, args[1]);
          }));
    }
    llvm::append_range(results,
                       toColumns(rewriter, loc, statistics,
                                 op.getResults().drop_front(results.size())));
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::coda::populateReductionLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LowerRMSNorm, LowerLayerNorm, LowerPartialReduce,
               LowerPartialSumRows, LowerPartialGather, LowerReducePartials,
               LowerLogSumExp, LowerCrossEntropy, LowerCrossEntropyFromPartials,
               LowerNormStatistics>(converter, patterns.getContext());
}
