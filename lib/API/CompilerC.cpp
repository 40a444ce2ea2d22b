//===- CompilerC.cpp - the C API over coda/Compiler.h ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda-c/Compiler.h"

#include "coda/Compiler.h"

using namespace mlir::coda;

/// The handle is the C++ result itself.
struct CodaCompileResult : CompileResult {
  explicit CodaCompileResult(CompileResult &&result)
      : CompileResult(std::move(result)) {}
};

static_assert(static_cast<int>(CompileDiagnostic::Severity::Error) ==
                      CodaDiagnosticError &&
                  static_cast<int>(CompileDiagnostic::Severity::Warning) ==
                      CodaDiagnosticWarning &&
                  static_cast<int>(CompileDiagnostic::Severity::Note) ==
                      CodaDiagnosticNote &&
                  static_cast<int>(CompileDiagnostic::Severity::Remark) ==
                      CodaDiagnosticRemark,
              "the C severities are the C++ ones");

CodaCompileStatus codaCompile(const char *text, size_t length,
                              const CodaCompileOptions *options,
                              CodaCompileResult **result) {
  if (result)
    *result = nullptr;
  if (!result || (!text && length != 0) ||
      (options && options->target != CodaCompileTargetPTX &&
       options->target != CodaCompileTargetCubin))
    return CodaCompileErrorInvalidArgument;
  CompileOptions compileOptions;
  if (options) {
    if (options->target == CodaCompileTargetCubin)
      compileOptions.target = CompileTarget::Cubin;
    compileOptions.stages = options->stages;
    if (options->schedule)
      compileOptions.schedule = options->schedule;
    if (options->bufferName)
      compileOptions.bufferName = options->bufferName;
  }
  *result = new CodaCompileResult(
      compileToBundle(llvm::StringRef(text, length), compileOptions));
  return (*result)->succeeded ? CodaCompileSuccess : CodaCompileErrorFailed;
}

void codaCompileResultDestroy(CodaCompileResult *result) { delete result; }

/// The text `member` of `result` ("" for a null result), with its length
/// in `*length` when that is not null.
static const char *getText(const CodaCompileResult *result,
                           std::string CompileResult::*member,
                           size_t *length) {
  static const std::string none;
  const std::string &text = result ? result->*member : none;
  if (length)
    *length = text.size();
  return text.c_str();
}

const char *codaCompileResultPTX(const CodaCompileResult *result,
                                 size_t *length) {
  return getText(result, &CompileResult::ptx, length);
}

const void *codaCompileResultCubin(const CodaCompileResult *result,
                                   size_t *size) {
  if (size)
    *size = result ? result->cubin.size() : 0;
  return result && !result->cubin.empty() ? result->cubin.data() : nullptr;
}

const char *codaCompileResultPlan(const CodaCompileResult *result,
                                  size_t *length) {
  return getText(result, &CompileResult::plan, length);
}

size_t codaCompileResultDiagnosticCount(const CodaCompileResult *result) {
  return result ? result->diagnostics.size() : 0;
}

CodaCompileStatus
codaCompileResultDiagnostic(const CodaCompileResult *result, size_t index,
                            CodaCompileDiagnostic *diagnostic) {
  if (!result || !diagnostic || index >= result->diagnostics.size())
    return CodaCompileErrorInvalidArgument;
  const CompileDiagnostic &entry = result->diagnostics[index];
  *diagnostic = {static_cast<CodaDiagnosticSeverity>(entry.severity),
                 entry.message.c_str(), entry.file.c_str(), entry.line,
                 entry.column};
  return CodaCompileSuccess;
}
