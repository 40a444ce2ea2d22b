//===- LossKernel.cpp - cross-entropy kernels over all the rows ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LossKernel.h"

#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

LogicalResult
mlir::coda::checkLossKernelSupport(CrossEntropyFromPartialsOp op) {
  for (Value statistic : {op.getLse(), op.getTargetLogits()}) {
    auto type = cast<RankedTensorType>(statistic.getType());
    if (type.getDimSize(1) != 1)
      return op.emitError("the kernel generator finishes a cross-entropy from "
                          "one log-sum-exp and one target logit per row "
                          "([M, 1], as coda-form-epilogues makes them), not ")
             << type;
  }
  return success();
}

namespace {
/// The start both kernels over all the rows share: one CTA of kLossThreads
/// threads, the row count, the thread's index and the test of a row's
/// target against ignore_index.
struct AllRowsKernel {
  AllRowsKernel(OpBuilder &b, Location loc, StringRef name, unsigned pointers,
                Value targetsOperand, int64_t ignoreIndex)
      : b(b), loc(loc) {
    kernel = createRowCountKernel(b, loc, name, pointers, kLossThreads);
    args = kernel.getArguments();
    targetType =
        cast<RankedTensorType>(targetsOperand.getType()).getElementType();
    ignored = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(targetType, ignoreIndex));
    rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value constant(double value) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  }
  /// Whether `row`'s target, read from `targets`, is not ignore_index.
  Value isCounted(Value targets, Value row) {
    Value target = LLVM::LoadOp::create(
        b, loc, targetType,
        getElementAddress(b, loc, targets, targetType, row));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, target,
                                 ignored);
  }

  OpBuilder &b;
  Location loc;
  gpu::GPUFuncOp kernel;
  ValueRange args;
  Type targetType;
  Value ignored, rows, tid;
};
} // namespace

/// The sums over the CTA's threads of each of `values`, in every thread:
/// across each warp, then the warps' sums through shared memory, each warp
/// adding all of them.
static SmallVector<Value> sumAcrossBlock(OpBuilder &b, Location loc,
                                         gpu::GPUFuncOp kernel, Value tid,
                                         ValueRange values) {
  constexpr int64_t warps = kLossThreads / 32;
  static_assert(warps == 32, "a warp adds one sum per warp");
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Type f32 = b.getF32Type();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value shared = kernel.addWorkgroupAttribution(
      MemRefType::get({int64_t(values.size()), warps}, f32,
                      MemRefLayoutAttrInterface(), workgroup),
      loc);
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(32));
  SmallVector<Value> warpSums;
  for (Value value : values)
    warpSums.push_back(sumAcrossLanes(b, loc, value, {16, 8, 4, 2, 1}));
  Value firstLane =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
  scf::IfOp::create(b, loc, firstLane, [&](OpBuilder &, Location) {
    for (auto [i, sum] : llvm::enumerate(warpSums))
      memref::StoreOp::create(b, loc, sum, shared,
                              ValueRange{index(int64_t(i)), warp});
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> totals;
  for (int64_t i = 0, e = values.size(); i < e; ++i)
    totals.push_back(sumAcrossLanes(
        b, loc,
        memref::LoadOp::create(b, loc, shared, ValueRange{index(i), lane}),
        {16, 8, 4, 2, 1}));
  return totals;
}

void mlir::coda::emitLossKernel(OpBuilder &b, CrossEntropyFromPartialsOp op,
                                StringRef name) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(b);
  AllRowsKernel all(b, loc, name, 4, op.getTargets(), op.getIgnoreIndex());
  Type f32 = b.getF32Type();
  ValueRange args = all.args;
  Value lse = args[1], picked = args[2], targets = args[3], result = args[4];
  auto index = [&](int64_t value) { return all.index(value); };
  auto constant = [&](double value) { return all.constant(value); };
  bool perRow = op.getReduction() == "none";
  Value rows = all.rows, tid = all.tid;
  auto load = [&](Value base, Type type, Value row) -> Value {
    return LLVM::LoadOp::create(b, loc, type,
                                getElementAddress(b, loc, base, type, row));
  };
  // The thread's rows: each row's loss, and for "sum" and "mean" the
  // running sums of the losses and of the rows counted.
  auto loop = scf::ForOp::create(
      b, loc, tid, rows, index(kLossThreads),
      ValueRange{constant(0.0), constant(0.0)},
      [&](OpBuilder &, Location, Value row, ValueRange sums) {
        Value counted = all.isCounted(targets, row);
        Value loss = arith::SelectOp::create(
            b, loc, counted,
            arith::SubFOp::create(b, loc, load(lse, f32, row),
                                  load(picked, f32, row)),
            constant(0.0));
        if (perRow)
          LLVM::StoreOp::create(b, loc, loss,
                                getElementAddress(b, loc, result, f32, row));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::AddFOp::create(b, loc, sums[0], loss),
                       arith::AddFOp::create(b, loc, sums[1],
                                             arith::SelectOp::create(
                                                 b, loc, counted, constant(1.0),
                                                 constant(0.0)))});
      });
  if (perRow) {
    gpu::ReturnOp::create(b, loc);
    return;
  }
  SmallVector<Value> totals =
      sumAcrossBlock(b, loc, all.kernel, tid, loop.getResults());
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &, Location) {
    Value loss =
        op.getReduction() == "mean"
            ? arith::DivFOp::create(b, loc, totals[0], totals[1]).getResult()
            : totals[0];
    LLVM::StoreOp::create(b, loc, loss,
                          getElementAddress(b, loc, result, f32, index(0)));
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}

void mlir::coda::emitRowWeightsKernel(OpBuilder &b, CrossEntropyRowWeightsOp op,
                                      StringRef name) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(b);
  AllRowsKernel all(b, loc, name, 3, op.getTargets(), op.getIgnoreIndex());
  Type f32 = b.getF32Type();
  Value targets = all.args[1], dloss = all.args[2], weights = all.args[3];
  auto index = [&](int64_t value) { return all.index(value); };
  auto constant = [&](double value) { return all.constant(value); };
  StringRef reduction = op.getReduction();
  Value rows = all.rows, tid = all.tid;
  auto counted = [&](Value row) { return all.isCounted(targets, row); };
  // The weight every counted row shares: dloss, or dloss over the count.
  Value shared;
  if (reduction != "none") {
    shared = LLVM::LoadOp::create(
        b, loc, f32, getElementAddress(b, loc, dloss, f32, index(0)));
    if (reduction == "mean") {
      auto count = scf::ForOp::create(
          b, loc, tid, rows, index(kLossThreads), ValueRange{constant(0.0)},
          [&](OpBuilder &, Location, Value row, ValueRange sum) {
            scf::YieldOp::create(
                b, loc,
                ValueRange{arith::AddFOp::create(
                    b, loc, sum[0],
                    arith::SelectOp::create(b, loc, counted(row), constant(1.0),
                                            constant(0.0)))});
          });
      Value total =
          sumAcrossBlock(b, loc, all.kernel, tid, count.getResults()).front();
      shared = arith::DivFOp::create(b, loc, shared, total);
    }
  }
  scf::ForOp::create(
      b, loc, tid, rows, index(kLossThreads), ValueRange(),
      [&](OpBuilder &, Location, Value row, ValueRange) {
        Value weight = shared ? shared
                              : LLVM::LoadOp::create(
                                    b, loc, f32,
                                    getElementAddress(b, loc, dloss, f32, row))
                                    .getResult();
        LLVM::StoreOp::create(b, loc,
                              arith::SelectOp::create(b, loc, counted(row),
                                                      weight, constant(0.0)),
                              getElementAddress(b, loc, weights, f32, row));
        scf::YieldOp::create(b, loc);
      });
  gpu::ReturnOp::create(b, loc);
}
