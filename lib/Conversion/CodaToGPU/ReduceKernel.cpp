//===- ReduceKernel.cpp - kernels that finish per-tile partials -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ReduceKernel.h"

#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"

#include "GemmKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::coda;

FailureOr<int64_t>
mlir::coda::checkReduceKernelSupport(ReducePartialsOp reduce) {
  // The partials come from a GEMM's epilogue in tiles of its N-tile.
  auto result = dyn_cast<OpResult>(reduce.getPartials().front());
  auto gemm = result ? dyn_cast<GemmOp>(result.getOwner()) : GemmOp();
  Value yielded =
      gemm
          ? gemm.getBody().getTerminator()->getOperand(result.getResultNumber())
          : Value();
  // A partial reduction's or gather's, along the rows.
  if (!yielded || !isa_and_present<PartialReduceOp, PartialGatherOp>(
                      yielded.getDefiningOp()))
    return reduce.emitError("the kernel generator finishes partials stored by "
                            "a GEMM's epilogue; these come from elsewhere");
  return llvm::divideCeil(getWidth(getPartialsSource(yielded)), kTileN);
}

void mlir::coda::emitReduceKernel(OpBuilder &b, ReducePartialsOp reduce,
                                  StringRef name, int64_t partials) {
  Location loc = reduce.getLoc();
  OpBuilder::InsertionGuard guard(b);
  auto kernel = createRowCountKernel(
      b, loc, name, reduce->getNumOperands() + reduce->getNumResults(),
      32 * kReduceRowsPerBlock);
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Type f32 = b.getF32Type();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  ValueRange args = kernel.getArguments();
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  ValueRange inputs = args.slice(1, reduce->getNumOperands());
  ValueRange outputs = args.drop_front(1 + reduce->getNumOperands());
  Value lane, row;
  std::tie(lane, row) = getWarpRow(b, loc, kReduceRowsPerBlock);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  auto element = [&](Value base, Value position) {
    return getElementAddress(b, loc, base, f32, position);
  };
  // Combines `term(tile, partial values...)` over the row's partials, by
  // sums or (`max`) by the maximum: lane l takes tiles l, l + 32, ..., in
  // batches of at most kReduceStepsInFlight, all of a batch's loads issued
  // before its first term (a lane past the last tile reads that tile and
  // counts the identity), the batches after one another in a loop when
  // there are several; then the lanes combine theirs, each lane getting the
  // row's total.
  auto reduceTiles = [&](function_ref<Value(Value, ArrayRef<Value>)> term,
                         bool max) {
    Value first = arith::MulIOp::create(b, loc, row, index(partials));
    Value identity =
        constant(max ? -std::numeric_limits<double>::infinity() : 0.0);
    int64_t steps = llvm::divideCeil(partials, 32);
    int64_t batchSteps = std::min(steps, kReduceStepsInFlight);
    int64_t batches = llvm::divideCeil(steps, batchSteps);
    // One batch from the lane's tile `start`, its steps from `guarded` on
    // counted only where their tile is one of the row's.
    auto combineBatch = [&](Value start, int64_t guarded, Value total) {
      SmallVector<std::pair<Value, SmallVector<Value>>> loaded;
      for (int64_t step = 0; step < batchSteps; ++step) {
        Value tile = arith::AddIOp::create(b, loc, start, index(32 * step));
        Value read = arith::MinUIOp::create(b, loc, tile, index(partials - 1));
        Value position = arith::AddIOp::create(b, loc, first, read);
        SmallVector<Value> values;
        for (Value input : inputs)
          values.push_back(
              LLVM::LoadOp::create(b, loc, f32, element(input, position)));
        loaded.emplace_back(tile, std::move(values));
      }
      for (auto [step, tileValues] : llvm::enumerate(loaded)) {
        auto &[tile, values] = tileValues;
        Value value = term(tile, values);
        if (int64_t(step) >= guarded)
          value = arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tile,
                                    index(partials)),
              value, identity);
        total =
            max ? arith::MaximumFOp::create(b, loc, total, value).getResult()
                : arith::AddFOp::create(b, loc, total, value).getResult();
      }
      return total;
    };
    Value total;
    if (batches == 1) {
      total = combineBatch(lane, partials % 32 ? steps - 1 : steps, identity);
    } else {
      // Only the last batch may pass the row's last tile.
      int64_t guarded = partials % (32 * batchSteps) ? 0 : batchSteps;
      total =
          scf::ForOp::create(
              b, loc, index(0), index(batches), index(1), ValueRange{identity},
              [&](OpBuilder &, Location, Value batch, ValueRange carried) {
                Value start = arith::AddIOp::create(
                    b, loc, lane,
                    arith::MulIOp::create(b, loc, batch,
                                          index(32 * batchSteps)));
                scf::YieldOp::create(
                    b, loc, combineBatch(start, guarded, carried.front()));
              })
              .getResult(0);
    }
    return max ? maxAcrossLanes(b, loc, total, {16, 8, 4, 2, 1})
               : sumAcrossLanes(b, loc, total, {16, 8, 4, 2, 1});
  };
  auto sumTiles = [&](function_ref<Value(Value, ArrayRef<Value>)> term) {
    return reduceTiles(term, /*max=*/false);
  };
  auto partial = [](Value, ArrayRef<Value> v) { return v[0]; };
  // Every lane holds the row's results; its first lane stores them.
  Value leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
  auto store = [&](Value value, Value output) {
    scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
      LLVM::StoreOp::create(b, loc, value, element(output, row));
      scf::YieldOp::create(b, loc);
    });
  };
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    auto epsilon = [&] {
      return arith::ConstantOp::create(b, loc, reduce.getEpsilonAttr());
    };
    if (reduce.getKind() == "max" || reduce.getKind() == "lse") {
      Value max = reduceTiles(partial, /*max=*/true);
      Value result = max;
      if (reduce.getKind() == "lse") {
        // max + log Σ exp(lseⱼ − max) over the blocks' log-sum-exps.
        Value exps = sumTiles([&](Value, ArrayRef<Value> v) -> Value {
          return math::ExpOp::create(b, loc,
                                     arith::SubFOp::create(b, loc, v[0], max));
        });
        result = arith::AddFOp::create(b, loc, max,
                                       math::LogOp::create(b, loc, exps));
      }
      store(result, outputs[0]);
      scf::YieldOp::create(b, loc);
      return;
    }
    Value sum = sumTiles(partial);
    if (reduce.getKind() == "sum") {
      store(sum, outputs[0]);
    } else if (reduce.getKind() == "rstd") {
      Value count = constant(double(*reduce.getCount()));
      Value rstd = math::RsqrtOp::create(
          b, loc,
          arith::AddFOp::create(
              b, loc, arith::DivFOp::create(b, loc, sum, count), epsilon()));
      store(rstd, outputs[0]);
    } else {
      // mean_rstd: var = (Σ cⱼ + Σ nⱼ (sⱼ / nⱼ − μ)²) / count, nⱼ the
      // block's columns (the last holds the rest of count).
      int64_t count = *reduce.getCount();
      int64_t tileN = reduce.getTileNOrDefault();
      Value total = constant(double(count));
      Value mean = arith::DivFOp::create(b, loc, sum, total);
      Value squares = sumTiles([&](Value tile, ArrayRef<Value> v) -> Value {
        Value columns = arith::MinUIOp::create(
            b, loc, index(tileN),
            arith::SubIOp::create(
                b, loc, index(count),
                arith::MulIOp::create(b, loc, tile, index(tileN))));
        Value n = arith::UIToFPOp::create(
            b, loc, f32,
            arith::IndexCastOp::create(b, loc, b.getI32Type(), columns));
        Value shift = arith::SubFOp::create(
            b, loc, arith::DivFOp::create(b, loc, v[0], n), mean);
        return arith::AddFOp::create(
            b, loc, v[1],
            arith::MulFOp::create(b, loc, n,
                                  arith::MulFOp::create(b, loc, shift, shift)));
      });
      Value rstd = math::RsqrtOp::create(
          b, loc,
          arith::AddFOp::create(b, loc,
                                arith::DivFOp::create(b, loc, squares, total),
                                epsilon()));
      store(mean, outputs[0]);
      store(rstd, outputs[1]);
    }
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
