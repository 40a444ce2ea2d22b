//===- TopLevelModule.cpp - the module a translation takes ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Support/TopLevelModule.h"

using namespace mlir;

ModuleOp mlir::coda::getTopLevelModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  op->emitError("expected a builtin.module at the top level, got '")
      << op->getName()
      << "' (without --no-implicit-module, top-level functions are wrapped "
         "in one)";
  return ModuleOp();
}
