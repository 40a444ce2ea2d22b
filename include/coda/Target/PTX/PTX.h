//===- PTX.h - coda functions to PTX for sm_90a -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_TARGET_PTX_PTX_H
#define CODA_TARGET_PTX_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::coda {

/// Compiles `module`, at the graph or the epilogue-program level, to PTX for
/// sm_90a: runs coda-fuse-pipeline and convert-coda-to-gpu on it, lowers the
/// kernels through NVVM and writes the PTX of every kernel module to `os`.
/// math functions need libdevice: CUDA_ROOT names the toolkit
/// (/usr/local/cuda when unset and present).
LogicalResult translateToPTX(ModuleOp module, raw_ostream &os);

/// Registers the `coda-to-ptx` translation of coda-translate.
void registerPTXTranslation();

} // namespace mlir::coda

#endif // CODA_TARGET_PTX_PTX_H
