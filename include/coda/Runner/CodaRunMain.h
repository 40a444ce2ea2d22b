//===- CodaRunMain.h - the coda-run tool ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_CODARUNMAIN_H
#define CODA_RUNNER_CODARUNMAIN_H

namespace mlir::coda {

/// Parses the command line of coda-run, runs it, and returns the exit code.
int codaRunMain(int argc, char **argv);

} // namespace mlir::coda

#endif // CODA_RUNNER_CODARUNMAIN_H
