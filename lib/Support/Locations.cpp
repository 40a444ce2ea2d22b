//===- Locations.cpp - locations in messages for users --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Support/Locations.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

std::string mlir::coda::formatSourceLine(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return " (line " + std::to_string(fileLoc.getLine()) + ")";
  return "";
}

std::string mlir::coda::formatSourceLocation(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return fileLoc.getFilename().str() + ":" +
           std::to_string(fileLoc.getLine()) + ":" +
           std::to_string(fileLoc.getColumn());
  return "";
}
