//===- ReductionUtils.cpp - row statistics for the CPU lowering -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ReductionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::coda;

Value mlir::coda::inverseRootMean(OpBuilder &b, Location loc, Value sum,
                                  int64_t count, double epsilon) {
  Type type = sum.getType();
  Value mean = arith::DivFOp::create(b, loc, sum,
                                     createFloat(b, loc, type, double(count)));
  Value shifted =
      arith::AddFOp::create(b, loc, mean, createFloat(b, loc, type, epsilon));
  Value root = math::SqrtOp::create(b, loc, shifted);
  return arith::DivFOp::create(b, loc, createFloat(b, loc, type, 1.0), root);
}

Value mlir::coda::square(OpBuilder &b, Location loc, Value x) {
  return arith::MulFOp::create(b, loc, x, x);
}

Value mlir::coda::firstArgument(OpBuilder &, Location, ValueRange args) {
  return args[0];
}

Value mlir::coda::buildLogSumExp(OpBuilder &builder, Location loc,
                                 Type computeType, GroupReduction reduce) {
  Value max = reduce({}, ReductionKind::Max, firstArgument);
  Value sumExp = reduce(
      max, ReductionKind::Sum, [](OpBuilder &b, Location l, ValueRange args) {
        return math::ExpOp::create(
            b, l, arith::SubFOp::create(b, l, args[0], args[1]));
      });
  auto type = cast<RankedTensorType>(max.getType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), builder.getContext());
  return buildElementwise(
      builder, loc, type, {max, sumExp}, {identity, identity}, computeType, max,
      [](OpBuilder &b, Location l, ValueRange args) {
        return arith::AddFOp::create(b, l, args[0],
                                     math::LogOp::create(b, l, args[1]));
      });
}

Value mlir::coda::buildRowLogSumExp(OpBuilder &builder, Location loc, Value x,
                                    Type computeType) {
  return buildLogSumExp(
      builder, loc, computeType,
      [&](ValueRange groupInputs, ReductionKind kind, ScalarBody map) {
        return buildRowReduction(builder, loc, x, groupInputs, computeType,
                                 kind, map);
      });
}

Value mlir::coda::buildRowSumSquares(OpBuilder &builder, Location loc, Value x,
                                     Type computeType) {
  return buildRowReduction(builder, loc, x, {}, computeType, ReductionKind::Sum,
                           [](OpBuilder &b, Location l, ValueRange args) {
                             return square(b, l, args[0]);
                           });
}

std::pair<Value, Value> mlir::coda::buildRowMoments(OpBuilder &builder,
                                                    Location loc, Value x,
                                                    int64_t width,
                                                    Type computeType) {
  Value sums = buildRowReduction(builder, loc, x, {}, computeType,
                                 ReductionKind::Sum, firstArgument);
  Value centred = buildRowReduction(
      builder, loc, x, sums, computeType, ReductionKind::Sum,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value mean = arith::DivFOp::create(
            b, l, args[1], createFloat(b, l, computeType, double(width)));
        return square(b, l, arith::SubFOp::create(b, l, args[0], mean));
      });
  return {sums, centred};
}

SmallVector<AffineMap> mlir::coda::getNormMaps(MLIRContext *context,
                                               unsigned matrices, unsigned rows,
                                               unsigned vectors) {
  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineExpr d1 = getAffineDimExpr(1, context);
  SmallVector<AffineMap> maps(matrices,
                              AffineMap::getMultiDimIdentityMap(2, context));
  maps.append(rows, AffineMap::get(2, 0, {d0}, context));
  maps.append(vectors, AffineMap::get(2, 0, {d1}, context));
  return maps;
}
