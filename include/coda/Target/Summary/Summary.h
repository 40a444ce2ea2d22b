//===- Summary.h - human-readable summary of coda functions -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_TARGET_SUMMARY_SUMMARY_H
#define CODA_TARGET_SUMMARY_SUMMARY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::coda {

/// Writes, for every function of `module`, its coda ops by kind, each GEMM
/// with its shape and work per row, the parameters it reads and the boundary
/// ops that cut it.
LogicalResult writeSummary(ModuleOp module, raw_ostream &os);

/// Registers the `coda-summary` translation of coda-translate.
void registerSummaryTranslation();

} // namespace mlir::coda

#endif // CODA_TARGET_SUMMARY_SUMMARY_H
