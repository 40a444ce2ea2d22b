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

#define GEN_PASS_DECL
#include "coda/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coda/Conversion/Passes.h.inc"

} // namespace mlir::coda

#endif // CODA_CONVERSION_PASSES_H
