//===- coda-opt.cpp - coda optimizer driver -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads MLIR, runs the passes named on the command line, prints the result.
// Registration lives in lib/InitAll.cpp.
//
//===----------------------------------------------------------------------===//

#include "coda/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::coda::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::coda::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "coda optimizer driver\n", registry));
}
