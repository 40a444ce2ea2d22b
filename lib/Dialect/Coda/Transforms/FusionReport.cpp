//===- FusionReport.cpp - what fusion did to each function ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "coda/Support/Locations.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "coda-fusion-report"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAFUSIONREPORTPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Returns the number of partials per row `value` holds when its type leaves
/// it symbolic: one per 128 columns of the reduced tensor.
static int64_t estimatePartialsPerRow(Value value) {
  if (auto result = dyn_cast<OpResult>(value))
    if (auto gemm = dyn_cast<GemmOp>(result.getOwner()))
      value =
          gemm.getBody().getTerminator()->getOperand(result.getResultNumber());
  if (auto partial = value.getDefiningOp<PartialReduceOp>())
    return llvm::divideCeil(partial.getX().getType().getDimSize(1),
                            partial.getTileNOrDefault());
  return 1;
}

/// Returns the bytes of `value` at `rows` rows.
static double tensorBytes(Value value, int64_t rows) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getElementType().isIntOrFloat())
    return 0;
  double elements = 1;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size))
      elements *= size;
    else if (dim != 0)
      elements *= estimatePartialsPerRow(value);
    else if (PartialSumRowsOp sums = getPartialSumRowsOf(value))
      elements *= llvm::divideCeil(rows, sums.getBlockRows());
    else
      elements *= rows;
  }
  return elements * type.getElementTypeBitWidth() / 8;
}

/// Returns true for an op that runs as a kernel of its own: every coda op
/// outside an epilogue or a map except `coda.slice`, a view.
static bool isKernel(Operation *op) {
  return isa<CodaDialect>(op->getDialect()) && !isa<SliceOp, YieldOp>(op) &&
         !isa<GemmOp, MapOp>(op->getParentOp());
}

/// Returns true for a kernel that reads and writes no tensor with a dynamic
/// row count: it works on parameters only (such as `gamma Wᵀ`), so its cost
/// does not grow with the rows.
static bool isParameterOnly(Operation *op) {
  auto hasRows = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0);
  };
  // Partials of a fixed size summarize the rows of what produced them.
  auto summarizesRows = [&](Value operand) {
    Operation *producer = operand.getDefiningOp();
    return producer && llvm::any_of(producer->getOperandTypes(), hasRows);
  };
  return llvm::none_of(op->getOperandTypes(), hasRows) &&
         llvm::none_of(op->getResultTypes(), hasRows) &&
         llvm::none_of(op->getOperands(), summarizesRows);
}

namespace {
/// Kernels of a function and the HBM bytes they move.
struct Traffic {
  unsigned kernels = 0;
  unsigned parameterOnly = 0;
  double bytes = 0;
};
} // namespace

static Traffic measure(func::FuncOp func, int64_t rows) {
  Traffic traffic;
  func.walk([&](Operation *op) {
    if (!isKernel(op))
      return;
    ++traffic.kernels;
    traffic.parameterOnly += isParameterOnly(op);
    for (Value operand : op->getOperands())
      traffic.bytes += tensorBytes(operand, rows);
    for (Value result : op->getResults())
      traffic.bytes += tensorBytes(result, rows);
  });
  return traffic;
}

static std::string formatMiB(double bytes) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.1f MiB", bytes / (1 << 20));
  return text;
}

namespace {
struct CodaFusionReportPass
    : public coda::impl::CodaFusionReportPassBase<CodaFusionReportPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rows < 1) {
      mlir::emitError(getOperation().getLoc(), "coda-fusion-report: rows = ")
          << int64_t(rows) << "; the report counts traffic at 1 row or more";
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(report(func)))
        return signalPassFailure();
  }

  /// Runs the pipeline on a copy of `func` and prints what changed.
  LogicalResult report(func::FuncOp func) {
    // The copy lives in a module of its own so the pipeline never sees, nor
    // changes, the module this pass runs on.
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
    auto copy = cast<func::FuncOp>(func->clone());
    scratch->push_back(copy);

    PassManager pm(&getContext(), ModuleOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(
            parsePassPipeline("func.func(" + pipeline + ")", pm, errorStream)))
      return mlir::emitError(getOperation().getLoc(),
                             "cannot parse the pipeline '")
             << pipeline << "' of coda-fusion-report: " << errors;
    if (failed(pm.run(*scratch)))
      return func.emitError("the pipeline '")
             << pipeline << "' failed on this function";

    Traffic before = measure(func, rows);
    Traffic after = measure(copy, rows);
    llvm::raw_ostream &os = llvm::outs();
    os << "fusion report for @" << func.getSymName() << " at " << rows
       << " rows (" << pipeline << ")\n";
    auto describe = [](const Traffic &traffic) {
      std::string text = std::to_string(traffic.kernels);
      if (traffic.parameterOnly)
        text += " (" + std::to_string(traffic.parameterOnly) +
                " on parameters only)";
      return text;
    };
    os << "  kernels: " << describe(before) << " before, " << describe(after)
       << " after\n";
    os << "  HBM traffic: " << formatMiB(before.bytes) << " before, "
       << formatMiB(after.bytes) << " after";
    if (after.bytes > 0)
      os << llvm::format(" (%.2fx less)", before.bytes / after.bytes);
    os << "\n";

    os << "  kernels after fusion:\n";
    copy.walk([&](Operation *op) {
      if (!isKernel(op))
        return;
      os << "    " << op->getName() << formatSourceLine(op->getLoc());
      if (auto gemm = dyn_cast<GemmOp>(op))
        os << ": "
           << (gemm.getNumProducts() > 1
                   ? std::to_string(gemm.getNumProducts()) + " products, "
                   : std::string())
           << gemm.getB().size() << " weight(s), " << gemm.getInputs().size()
           << " epilogue input(s), " << gemm.getNumResults() << " output(s), "
           << gemm.getBody().getOperations().size() - 1 << " epilogue op(s)";
      if (isParameterOnly(op))
        os << " [parameters only]";
      os << "\n";
    });

    unsigned unfused = 0;
    copy.walk([&](Operation *op) {
      if (!isKernel(op) || isa<GemmOp>(op))
        return;
      std::string reason = explainUnfused(op, maxEpilogueOps);
      if (reason.empty())
        return;
      if (unfused++ == 0)
        os << "  left unfused:\n";
      os << "    " << op->getName() << formatSourceLine(op->getLoc()) << ": "
         << reason << "\n";
    });
    if (unfused == 0)
      os << "  left unfused: none\n";
    os.flush();
    return success();
  }
};
} // namespace
