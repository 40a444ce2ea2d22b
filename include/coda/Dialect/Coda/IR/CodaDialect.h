//===- CodaDialect.h - coda dialect declaration -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODADIALECT_H
#define CODA_DIALECT_CODA_IR_CODADIALECT_H

#include "mlir/IR/Dialect.h"

#include "coda/Dialect/Coda/IR/CodaOpsDialect.h.inc"

#endif // CODA_DIALECT_CODA_IR_CODADIALECT_H
