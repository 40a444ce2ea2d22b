//===- StatisticsKernel.cpp - standalone norm statistics kernels ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lane l of a row's warp handles columns 2·l + 64·i and the next one. The
// first pass sums x (and x² for "rms_norm", writing h = x · gamma as it
// goes); "layer_norm" makes a second pass over the row, which L1 holds, for
// the centered sum of squares and h = (x − μ) · gamma, so the variance
// does not lose the mean's bits to cancellation.
//
//===----------------------------------------------------------------------===//

#include "StatisticsKernel.h"

#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

LogicalResult mlir::coda::checkStatisticsKernelSupport(NormStatisticsOp op) {
  auto type = cast<RankedTensorType>(op.getX().getType());
  if (type.getDimSize(1) % 2 != 0)
    return op.emitError("the statistics kernel reads pairs of columns; x "
                        "has ")
           << type.getDimSize(1) << " columns";
  return success();
}

void mlir::coda::emitStatisticsKernel(OpBuilder &b, NormStatisticsOp op,
                                      StringRef name) {
  Location loc = op.getLoc();
  bool hasGamma = bool(op.getGamma());
  bool layerNorm = op.getKind() == "layer_norm";
  OpBuilder::InsertionGuard guard(b);
  auto kernel = createRowCountKernel(b, loc, name,
                                     (hasGamma ? 2 : 1) + op.getNumResults(),
                                     32 * kStatisticsRowsPerBlock);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Type f32 = b.getF32Type();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  auto xType = cast<RankedTensorType>(op.getX().getType());
  int64_t n = xType.getDimSize(1);
  Type element = xType.getElementType();
  ValueRange args = kernel.getArguments();
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value x = args[1];
  Value gamma = hasGamma ? args[2] : Value();
  ValueRange results = args.drop_front(hasGamma ? 3 : 2);

  Value lane, row;
  std::tie(lane, row) = getWarpRow(b, loc, kStatisticsRowsPerBlock);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);

  auto warpSum = [&](Value value) {
    return sumAcrossLanes(b, loc, value, {16, 8, 4, 2, 1});
  };
  // One pass over the row, summed over the warp: `term(column, x0, x1)` is
  // the lane's term for a column pair; columns past N are skipped.
  int64_t steps = llvm::divideCeil(n, 64);
  auto pass = [&](function_ref<Value(Value, Value, Value)> term) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(steps), index(1), ValueRange{constant(0.0)},
        [&](OpBuilder &, Location, Value step, ValueRange sum) {
          Value column = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, step, index(64)),
              arith::MulIOp::create(b, loc, lane, index(2)));
          Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              column, index(n));
          auto next = scf::IfOp::create(
              b, loc, valid,
              [&](OpBuilder &, Location) {
                Value position = arith::AddIOp::create(
                    b, loc, arith::MulIOp::create(b, loc, row, index(n)),
                    column);
                SmallVector<Value> pair =
                    loadWidened(b, loc, x, element, position, 2);
                Value added = arith::AddFOp::create(
                    b, loc, sum[0], term(column, pair[0], pair[1]));
                scf::YieldOp::create(b, loc, added);
              },
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(b, loc, sum);
              });
          scf::YieldOp::create(b, loc, next.getResults());
        });
    return warpSum(loop.getResult(0));
  };
  // Stores h at `column` from the two f32 values.
  auto storeH = [&](Value column, Value h0, Value h1) {
    if (!hasGamma)
      return;
    SmallVector<Value> g = loadWidened(b, loc, gamma, element, column, 2);
    Value position = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(n)), column);
    storeNarrowed(b, loc,
                  {arith::MulFOp::create(b, loc, h0, g[0]),
                   arith::MulFOp::create(b, loc, h1, g[1])},
                  results[0], element, position);
  };

  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value count = constant(double(n));
    Value epsilon = arith::ConstantOp::create(b, loc, op.getEpsilonAttr());
    // LayerNorm: the mean first, so the squares are of deviations from it.
    Value mean;
    if (layerNorm)
      mean = arith::DivFOp::create(
          b, loc, pass([&](Value, Value x0, Value x1) -> Value {
            return arith::AddFOp::create(b, loc, x0, x1);
          }),
          count);
    // The sum of squares (of deviations for LayerNorm), writing h as it goes.
    Value squares = pass([&](Value column, Value x0, Value x1) -> Value {
      Value d0 =
          mean ? arith::SubFOp::create(b, loc, x0, mean).getResult() : x0;
      Value d1 =
          mean ? arith::SubFOp::create(b, loc, x1, mean).getResult() : x1;
      storeH(column, d0, d1);
      return arith::AddFOp::create(b, loc,
                                   arith::MulFOp::create(b, loc, d0, d0),
                                   arith::MulFOp::create(b, loc, d1, d1));
    });
    Value rstd = math::RsqrtOp::create(
        b, loc,
        arith::AddFOp::create(
            b, loc, arith::DivFOp::create(b, loc, squares, count), epsilon));
    // The warp's first lane stores the row's statistics.
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
    scf::IfOp::create(b, loc, first, [&](OpBuilder &, Location) {
      unsigned statistic = hasGamma ? 1 : 0;
      LLVM::StoreOp::create(
          b, loc, rstd,
          getElementAddress(b, loc, results[statistic], f32, row));
      if (layerNorm)
        LLVM::StoreOp::create(
            b, loc, mean,
            getElementAddress(b, loc, results[statistic + 1], f32, row));
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
