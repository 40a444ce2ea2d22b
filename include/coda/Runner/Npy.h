//===- Npy.h - NumPy .npy files for coda-run --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_NPY_H
#define CODA_RUNNER_NPY_H

#include "coda/Runner/HostTensor.h"
#include "llvm/Support/Error.h"

namespace mlir::coda {

/// Reads a version 1, 2 or 3 `.npy` file holding a C-order array of `f2`,
/// `f4`, `f8`, `i4` or `i8` in little-endian (`<`) or native (`=`) byte
/// order, whose data is exactly the size its shape needs. Errors name the
/// file and what is wrong with it.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Writes `tensor` as a version 1 `.npy` file. bf16, which NumPy lacks, is
/// written exactly as `<f4`.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace mlir::coda

#endif // CODA_RUNNER_NPY_H
