//===- Passes.h - coda conversions ------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_CONVERSION_PASSES_H
#define CODA_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::coda {

/// The row tiles that sweep the column tiles together in a GEMM's grouped
/// tile order unless its plan or the `group-rows` option says otherwise.
constexpr unsigned kDefaultGroupRows = 8;

#define GEN_PASS_DECL
#include "coda/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coda/Conversion/Passes.h.inc"

} // namespace mlir::coda

#endif // CODA_CONVERSION_PASSES_H
