//===- TopLevelModule.h - the module a translation takes --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_SUPPORT_TOPLEVELMODULE_H
#define CODA_SUPPORT_TOPLEVELMODULE_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::coda {

/// `op` as the builtin.module a coda-translate translation takes, or null
/// after reporting on `op` what it is instead (a file parsed with
/// --no-implicit-module may hold a function at the top level).
ModuleOp getTopLevelModule(Operation *op);

} // namespace mlir::coda

#endif // CODA_SUPPORT_TOPLEVELMODULE_H
