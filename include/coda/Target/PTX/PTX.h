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

/// Compiles `module`, at the graph, epilogue-program or kernel level, to PTX
/// for sm_90a: runs coda-fuse-pipeline and convert-coda-to-gpu on it unless
/// it holds kernels already, lowers the kernels through NVVM and writes the
/// PTX of every kernel module to `os`.
/// math functions need libdevice: CUDA_ROOT names the toolkit
/// (/usr/local/cuda when unset and present). With a non-empty `planPath`,
/// the launch plan (LaunchPlan.h) is written there.
LogicalResult translateToPTX(ModuleOp module, raw_ostream &os,
                             StringRef planPath = "");

/// Compiles `module` as `translateToPTX` does, assembles the PTX with
/// `$CUDA_ROOT/bin/ptxas -arch=sm_90a` (CUDA_ROOT defaulting to
/// /usr/local/cuda) and writes the cubin to `os`. A missing ptxas or a
/// failing assembly is reported on the module.
LogicalResult translateToCubin(ModuleOp module, raw_ostream &os,
                               StringRef planPath = "");

/// Registers the `coda-to-ptx` and `coda-to-cubin` translations of
/// coda-translate.
void registerPTXTranslation();

} // namespace mlir::coda

#endif // CODA_TARGET_PTX_PTX_H
