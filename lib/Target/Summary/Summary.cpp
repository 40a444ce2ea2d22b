//===- Summary.cpp - human-readable summary of coda functions -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Target/Summary/Summary.h"

#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Support/Locations.h"
#include "coda/Support/TopLevelModule.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::coda;

namespace {
/// One matrix product of a function: `[M, K] x [K, N]`.
struct GemmShape {
  Operation *op;
  int64_t k;
  int64_t n;

  /// Multiply-adds per output row, counted as two operations each.
  uint64_t flopsPerRow() const {
    return llvm::SaturatingMultiply(uint64_t(2) * uint64_t(k), uint64_t(n));
  }
};
} // namespace

/// Returns the shape of the product computed by `op`, if it is one.
static std::optional<GemmShape> getGemmShape(Operation *op) {
  if (auto linear = dyn_cast<LinearOp>(op))
    return GemmShape{op, linear.getW().getType().getDimSize(1),
                     linear.getW().getType().getDimSize(0)};
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return GemmShape{op, matmul.getB().getType().getDimSize(0),
                     matmul.getB().getType().getDimSize(1)};
  return std::nullopt;
}

static std::string valueName(Value value, AsmState &state) {
  std::string name;
  llvm::raw_string_ostream os(name);
  value.printAsOperand(os, state);
  return name;
}

static void writeFunctionSummary(func::FuncOp func, raw_ostream &os) {
  AsmState state(func);
  llvm::MapVector<StringRef, unsigned> opCounts;
  SmallVector<GemmShape> gemms;
  SmallVector<Operation *> boundaries;
  unsigned codaOps = 0;
  func.walk([&](Operation *op) {
    if (!isa<CodaDialect>(op->getDialect()))
      return;
    ++codaOps;
    ++opCounts[op->getName().stripDialect()];
    if (auto shape = getGemmShape(op))
      gemms.push_back(*shape);
    if (isa<AttentionOp>(op))
      boundaries.push_back(op);
  });

  os << "function @" << func.getSymName() << ": " << func.getNumArguments()
     << " arguments, " << func.getNumResults() << " results, " << codaOps
     << " coda ops\n";
  if (codaOps == 0)
    return;

  os << "  ops:";
  for (auto [name, count] : opCounts)
    os << " " << name << "=" << count;
  os << "\n";

  // A fully static argument is a parameter (weights, gamma, bias); one with a
  // dynamic row count is an activation.
  uint64_t parameters = 0, parameterBytes = 0;
  unsigned parameterArgs = 0;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
        !type.getElementType().isIntOrFloat())
      continue;
    ++parameterArgs;
    uint64_t elements = 1;
    for (int64_t size : type.getShape())
      elements = llvm::SaturatingMultiply(elements, uint64_t(size));
    parameters = llvm::SaturatingAdd(parameters, elements);
    parameterBytes = llvm::SaturatingAdd(
        parameterBytes, llvm::SaturatingMultiply(
                            elements, uint64_t(type.getElementTypeBitWidth())) /
                            8);
  }
  os << "  parameters: " << parameterArgs << " static tensors, " << parameters
     << " elements, "
     << llvm::format("%.1f", double(parameterBytes) / (1 << 20)) << " MiB\n";

  uint64_t flopsPerRow = 0;
  for (const GemmShape &gemm : gemms)
    flopsPerRow = llvm::SaturatingAdd(flopsPerRow, gemm.flopsPerRow());
  os << "  GEMMs: " << gemms.size() << ", " << flopsPerRow << " FLOP per row\n";
  for (const GemmShape &gemm : gemms)
    os << "    " << valueName(gemm.op->getResult(0), state) << " = "
       << gemm.op->getName().stripDialect() << " [M x " << gemm.k << "] x ["
       << gemm.k << " x " << gemm.n << "], " << gemm.flopsPerRow()
       << " FLOP per row" << formatSourceLine(gemm.op->getLoc()) << "\n";

  unsigned outsideGemms = codaOps - gemms.size() - boundaries.size() -
                          opCounts.lookup("slice") - opCounts.lookup("concat");
  os << "  memory-bound ops outside GEMMs: " << outsideGemms << "\n";
  os << "  boundary ops (never fused across): " << boundaries.size() << "\n";
  for (Operation *op : boundaries)
    os << "    " << valueName(op->getResult(0), state) << " = "
       << op->getName().stripDialect() << formatSourceLine(op->getLoc())
       << "\n";
}

LogicalResult mlir::coda::writeSummary(ModuleOp module, raw_ostream &os) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      writeFunctionSummary(func, os);
  return success();
}

void mlir::coda::registerSummaryTranslation() {
  TranslateFromMLIRRegistration registration(
      "coda-summary",
      "print the coda ops, GEMMs and parameters of every function",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        ModuleOp module = getTopLevelModule(op);
        if (!module)
          return failure();
        return writeSummary(module, os);
      },
      [](DialectRegistry &registry) {
        registry.insert<CodaDialect, func::FuncDialect>();
      });
}
