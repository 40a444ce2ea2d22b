//===- PlanKernels.cpp - choose each GEMM kernel's schedule and ring
//-------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmKernelPlan.h"
#include "coda/Conversion/Passes.h"
#include "mlir/IR/Builders.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAPLANKERNELSPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Gives `op` tile_n = kTileN unless it has one.
template <typename OpT>
static void fixTileN(OpT op) {
  if (!op.getTileN())
    op.setTileNAttr(Builder(op).getI64IntegerAttr(kTileN));
}

namespace {
struct CodaPlanKernelsPass
    : public coda::impl::CodaPlanKernelsPassBase<CodaPlanKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<std::optional<GemmSchedule>> gemmSchedule =
        parseScheduleOptions(getOperation(), schedule, stages, groupRows);
    if (failed(gemmSchedule))
      return signalPassFailure();
    WalkResult result = getOperation().walk([&](GemmOp gemm) {
      // A schedule and ring already on the op (written by hand, or by an
      // earlier run) are kept over the options.
      auto pinned = readPlanAttr(gemm);
      if (failed(pinned))
        return WalkResult::interrupt();
      FailureOr<GemmKernelPlan> plan = planGemmKernel(
          gemm,
          pinned->value_or(GemmPlanChoice{*gemmSchedule, stages, std::nullopt,
                                          groupRows, std::nullopt}));
      if (failed(plan))
        return WalkResult::interrupt();
      gemm->setAttr(kPlanAttrName, getPlanAttr(gemm.getContext(), *plan));
      for (Operation &op : gemm.getBody().without_terminator())
        if (auto partial = dyn_cast<PartialReduceOp>(op))
          fixTileN(partial);
      // The reductions that finish this GEMM's partials.
      auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
      for (auto [value, result] :
           llvm::zip_equal(yield.getValues(), gemm.getResults()))
        if (value.getDefiningOp<PartialReduceOp>())
          for (Operation *user : result.getUsers())
            if (auto reduce = dyn_cast<ReducePartialsOp>(user))
              fixTileN(reduce);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
