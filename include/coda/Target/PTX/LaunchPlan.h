//===- LaunchPlan.h - the launch plan of compiled coda functions -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_TARGET_PTX_LAUNCHPLAN_H
#define CODA_TARGET_PTX_LAUNCHPLAN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::coda {

/// Writes, as JSON, how to run each function of `module` after
/// convert-coda-to-gpu: its buffers (arguments, results and workspace, with
/// element type and shape, -1 standing for the row count M), and its
/// kernels in order, each with the launch shape as a function of M and the
/// kernel's arguments bound to buffers or tensor maps over them; an op no
/// kernel runs is a boundary step for the caller.
void writeLaunchPlan(ModuleOp module, raw_ostream &os);

} // namespace mlir::coda

#endif // CODA_TARGET_PTX_LAUNCHPLAN_H
