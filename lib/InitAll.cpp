//===- InitAll.cpp - register everything coda offers ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/InitAll.h"

#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Pipelines/Pipelines.h"
#include "coda/Target/PTX/PTX.h"
#include "coda/Target/Summary/Summary.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::coda::registerAllDialects(DialectRegistry &registry) {
  registry.insert<CodaDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
  // Bufferization of the CPU reference path.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::coda::registerAllPasses() {
  registerCodaPasses();
  registerCodaConversionPasses();
  registerCodaPipelines();
}

void mlir::coda::registerAllTranslations() {
  registerPTXTranslation();
  registerSummaryTranslation();
}
