//===- coda-translate.cpp - coda translation driver -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Translates MLIR to the formats coda emits. Registration lives in
// lib/InitAll.cpp.
//
//===----------------------------------------------------------------------===//

#include "coda/InitAll.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::coda::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "coda translation driver\n"));
}
