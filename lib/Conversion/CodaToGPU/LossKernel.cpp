//===- LossKernel.cpp - cross-entropy from row statistics ----------------===//
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

void mlir::coda::emitLossKernel(OpBuilder &b, CrossEntropyFromPartialsOp op,
                                StringRef name) {
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(b);
  auto kernel = createRowCountKernel(b, loc, name, 4, kLossThreads);
  constexpr int64_t warps = kLossThreads / 32;
  static_assert(warps == 32, "the first warp adds one sum per warp");
  Type f32 = b.getF32Type();
  ValueRange args = kernel.getArguments();
  Value lse = args[1], picked = args[2], targets = args[3], result = args[4];
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Type targetType =
      cast<RankedTensorType>(op.getTargets().getType()).getElementType();
  Value ignored = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(targetType, op.getIgnoreIndex()));
  bool perRow = op.getReduction() == "none";
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
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
        Value counted =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                  load(targets, targetType, row), ignored);
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
  // Across the warp, then the warps' sums in shared memory, added by the
  // first warp.
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value shared = kernel.addWorkgroupAttribution(
      MemRefType::get({2, warps}, f32, MemRefLayoutAttrInterface(), workgroup),
      loc);
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(32));
  auto isZero = [&](Value value) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value,
                                 index(0));
  };
  SmallVector<Value, 2> warpSums;
  for (Value sum : loop.getResults())
    warpSums.push_back(sumAcrossLanes(b, loc, sum, {16, 8, 4, 2, 1}));
  scf::IfOp::create(b, loc, isZero(lane), [&](OpBuilder &, Location) {
    for (auto [i, sum] : llvm::enumerate(warpSums))
      memref::StoreOp::create(b, loc, sum, shared,
                              ValueRange{index(int64_t(i)), warp});
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  scf::IfOp::create(b, loc, isZero(warp), [&](OpBuilder &, Location) {
    SmallVector<Value, 2> totals;
    for (int64_t i = 0; i < 2; ++i)
      totals.push_back(sumAcrossLanes(
          b, loc,
          memref::LoadOp::create(b, loc, shared, ValueRange{index(i), lane}),
          {16, 8, 4, 2, 1}));
    scf::IfOp::create(b, loc, isZero(lane), [&](OpBuilder &, Location) {
      Value loss =
          op.getReduction() == "mean"
              ? arith::DivFOp::create(b, loc, totals[0], totals[1]).getResult()
              : totals[0];
      LLVM::StoreOp::create(b, loc, loss,
                            getElementAddress(b, loc, result, f32, index(0)));
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
