//===- LoweringUtils.cpp - builders shared by coda-to-linalg --------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::coda;

Value mlir::coda::convertScalar(OpBuilder &builder, Location loc, Value value,
                                Type type) {
  Type from = value.getType();
  if (from == type || !isa<FloatType>(from) || !isa<FloatType>(type))
    return value;
  if (cast<FloatType>(from).getWidth() < cast<FloatType>(type).getWidth())
    return arith::ExtFOp::create(builder, loc, type, value);
  return arith::TruncFOp::create(builder, loc, type, value);
}

Value mlir::coda::createFloat(OpBuilder &builder, Location loc, Type type,
                              double value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getFloatAttr(type, value));
}

Value mlir::coda::createEmpty(OpBuilder &builder, Location loc,
                              RankedTensorType type, Value rowSource) {
  SmallVector<Value> dynamicSizes;
  if (type.getRank() > 0 && type.isDynamicDim(0))
    dynamicSizes.push_back(tensor::DimOp::create(builder, loc, rowSource, 0));
  return tensor::EmptyOp::create(builder, loc, type, dynamicSizes);
}

Value mlir::coda::createFilled(OpBuilder &builder, Location loc,
                               RankedTensorType type, Value rowSource,
                               double value) {
  Value empty = createEmpty(builder, loc, type, rowSource);
  Value fill = createFloat(builder, loc, type.getElementType(), value);
  return linalg::FillOp::create(builder, loc, fill, empty).getResult(0);
}

AffineMap mlir::coda::getBroadcastMap(MLIRContext *context,
                                      RankedTensorType operand,
                                      RankedTensorType result) {
  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineExpr d1 = getAffineDimExpr(1, context);
  if (operand.getRank() == 1)
    return AffineMap::get(2, 0, {d1}, context);
  if (operand.getDimSize(1) == 1 && result.getDimSize(1) != 1)
    return AffineMap::get(2, 0, {d0, getAffineConstantExpr(0, context)},
                          context);
  return AffineMap::getMultiDimIdentityMap(2, context);
}

Value mlir::coda::buildElementwise(OpBuilder &builder, Location loc,
                                   RankedTensorType resultType,
                                   ValueRange inputs, ArrayRef<AffineMap> maps,
                                   Type computeType, Value rowSource,
                                   ScalarBody body) {
  Value init = createEmpty(builder, loc, resultType, rowSource);
  SmallVector<AffineMap> indexingMaps(maps);
  indexingMaps.push_back(AffineMap::getMultiDimIdentityMap(
      resultType.getRank(), builder.getContext()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, inputs, init, indexingMaps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> computeArgs;
        for (Value arg : args.drop_back())
          computeArgs.push_back(
              convertScalar(nested, nestedLoc, arg, computeType));
        Value value = body(nested, nestedLoc, computeArgs);
        linalg::YieldOp::create(nested, nestedLoc,
                                convertScalar(nested, nestedLoc, value,
                                              resultType.getElementType()));
      });
  return generic.getResult(0);
}

Value mlir::coda::buildBroadcastElementwise(OpBuilder &builder, Location loc,
                                            RankedTensorType resultType,
                                            ValueRange inputs, Type computeType,
                                            ScalarBody body) {
  SmallVector<AffineMap> maps;
  Value rowSource = inputs.front();
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(builder.getContext(),
                                   cast<RankedTensorType>(input.getType()),
                                   resultType));
  return buildElementwise(builder, loc, resultType, inputs, maps, computeType,
                          rowSource, body);
}

Value mlir::coda::buildRowReduction(OpBuilder &builder, Location loc, Value x,
                                    ValueRange rowInputs, Type computeType,
                                    ReductionKind kind, ScalarBody map) {
  MLIRContext *context = builder.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  auto resultType = RankedTensorType::get({xType.getDimSize(0)}, computeType);
  double identity = kind == ReductionKind::Sum
                        ? 0.0
                        : -std::numeric_limits<double>::infinity();
  Value init = createFilled(builder, loc, resultType, x, identity);

  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineMap rowMap = AffineMap::get(2, 0, {d0}, context);
  SmallVector<Value> inputs = {x};
  llvm::append_range(inputs, rowInputs);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(2, context)};
  maps.append(rowInputs.size(), rowMap);
  maps.push_back(rowMap);
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, inputs, init, maps,
      {utils::IteratorType::parallel, utils::IteratorType::reduction},
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> computeArgs;
        for (Value arg : args.drop_back())
          computeArgs.push_back(
              convertScalar(nested, nestedLoc, arg, computeType));
        Value value = map(nested, nestedLoc, computeArgs);
        Value combined =
            kind == ReductionKind::Sum
                ? arith::AddFOp::create(nested, nestedLoc, args.back(), value)
                      .getResult()
                : arith::MaximumFOp::create(nested, nestedLoc, args.back(),
                                            value)
                      .getResult();
        linalg::YieldOp::create(nested, nestedLoc, combined);
      });
  return generic.getResult(0);
}

Value mlir::coda::castToType(OpBuilder &builder, Location loc, Value value,
                             Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(builder, loc, type, value);
}

Value mlir::coda::expandToColumn(OpBuilder &builder, Location loc,
                                 Value values) {
  auto type = cast<RankedTensorType>(values.getType());
  auto columnType =
      RankedTensorType::get({type.getDimSize(0), 1}, type.getElementType());
  SmallVector<OpFoldResult> shape = {
      type.isDynamicDim(0)
          ? OpFoldResult(tensor::DimOp::create(builder, loc, values, 0))
          : OpFoldResult(builder.getIndexAttr(type.getDimSize(0))),
      builder.getIndexAttr(1)};
  return tensor::ExpandShapeOp::create(builder, loc, columnType, values,
                                       ArrayRef<ReassociationIndices>{{0, 1}},
                                       shape);
}
