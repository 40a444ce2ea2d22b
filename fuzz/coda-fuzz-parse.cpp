//===- coda-fuzz-parse.cpp - fuzz parse, verify and canonicalize ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libFuzzer entry point. Any input must be parsed, verified and
// canonicalized without a crash. Two properties are checked on inputs that
// verify: canonicalization keeps the module valid, and the printed module
// parses back.
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

/// Stops the run: a property that must hold for every verified module failed.
[[noreturn]] static void reportBug(const char *what, ModuleOp module) {
  llvm::errs() << "coda-fuzz-parse: " << what << "\n";
  module.print(llvm::errs());
  abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry();
    registry->insert<coda::CodaDialect, func::FuncDialect>();
    return registry;
  }();
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });

  // The lexer expects a NUL after the text, as files read from disk have;
  // libFuzzer's buffer ends right after the last byte.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;

  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    reportBug("canonicalize failed or produced invalid IR", *module);

  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  if (!parseSourceString<ModuleOp>(printed, ParserConfig(&context)))
    reportBug("the printed module does not parse back", *module);
  return 0;
}
