//===- Compiler.cpp - compile coda modules inside another program ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Compiler.h"

#include "coda/InitAll.h"
#include "coda/Target/PTX/PTX.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::coda;

static CompileDiagnostic::Severity getSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return CompileDiagnostic::Severity::Error;
  case DiagnosticSeverity::Warning:
    return CompileDiagnostic::Severity::Warning;
  case DiagnosticSeverity::Note:
    return CompileDiagnostic::Severity::Note;
  case DiagnosticSeverity::Remark:
    return CompileDiagnostic::Severity::Remark;
  }
  llvm_unreachable("unknown diagnostic severity");
}

/// Appends `diagnostic`, then each of its notes, to `diagnostics`. The
/// source position is the first file location in the diagnostic's (looking
/// through fused, named and call-site locations).
static void record(Diagnostic &diagnostic,
                   std::vector<CompileDiagnostic> &diagnostics) {
  CompileDiagnostic entry;
  entry.severity = getSeverity(diagnostic.getSeverity());
  entry.message = diagnostic.str();
  if (auto loc = diagnostic.getLocation()->findInstanceOf<FileLineColLoc>()) {
    entry.file = loc.getFilename().str();
    entry.line = loc.getLine();
    entry.column = loc.getColumn();
  }
  diagnostics.push_back(std::move(entry));
  for (Diagnostic &note : diagnostic.getNotes())
    record(note, diagnostics);
}

/// Compiles the text of `moduleText` in `context` into `result`'s PTX, plan
/// and cubin; failures are reported on the context.
static LogicalResult compile(MLIRContext &context, StringRef moduleText,
                             const CompileOptions &options,
                             CompileResult &result) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      moduleText, ParserConfig(&context), options.bufferName);
  if (!module)
    return failure();
  CodaToPTXPipelineOptions pipeline;
  pipeline.stages = options.stages;
  if (!options.schedule.empty())
    pipeline.schedule = options.schedule;
  llvm::raw_string_ostream ptx(result.ptx), plan(result.plan);
  if (failed(translateToPTX(*module, ptx, &plan, pipeline)))
    return failure();
  if (options.target != CompileTarget::Cubin)
    return success();
  llvm::raw_string_ostream cubin(result.cubin);
  return assemblePTX(module->getLoc(), result.ptx, cubin);
}

CompileResult mlir::coda::compileToBundle(StringRef moduleText,
                                          const CompileOptions &options) {
  DialectRegistry registry;
  registerAllTranslationDialects(registry);
  MLIRContext context(registry);
  // A diagnostic is the message and its location; the IR of the failing
  // op is for a person at a terminal.
  context.printOpOnDiagnostic(false);
  CompileResult result;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    record(diagnostic, result.diagnostics);
    return success();
  });
  result.succeeded = succeeded(compile(context, moduleText, options, result));
  if (!result.succeeded) {
    result.ptx.clear();
    result.cubin.clear();
    result.plan.clear();
  }
  return result;
}
