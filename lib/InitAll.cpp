//===- InitAll.cpp - register everything coda offers ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/InitAll.h"

#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Pipelines/Pipelines.h"
#include "coda/Target/Summary/Summary.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::coda::registerAllDialects(DialectRegistry &registry) {
  registry.insert<CodaDialect, func::FuncDialect, tensor::TensorDialect>();
}

void mlir::coda::registerAllPasses() {
  registerCodaPasses();
  registerCodaPipelines();
}

void mlir::coda::registerAllTranslations() { registerSummaryTranslation(); }
