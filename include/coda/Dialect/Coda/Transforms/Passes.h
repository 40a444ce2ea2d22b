//===- Passes.h - coda graph rewrites ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_TRANSFORMS_PASSES_H
#define CODA_DIALECT_CODA_TRANSFORMS_PASSES_H

#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::coda {

#define GEN_PASS_DECL
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"

} // namespace mlir::coda

#endif // CODA_DIALECT_CODA_TRANSFORMS_PASSES_H
