//===- coda-run.cpp - run coda functions on seeded or given inputs --------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The logic lives in lib/Runner/CodaRunMain.cpp.
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/CodaRunMain.h"

int main(int argc, char **argv) { return mlir::coda::codaRunMain(argc, argv); }
