//===- PTX.h - coda functions to PTX for sm_90a -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_TARGET_PTX_PTX_H
#define CODA_TARGET_PTX_PTX_H

#include "coda/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::coda {

/// Compiles `module`, at the graph, epilogue-program or kernel level, to PTX
/// for sm_90a: runs coda-to-ptx-pipeline with `options` on it unless it
/// holds kernels already (they keep the options they were generated with),
/// lowers the kernels through NVVM and writes the PTX of every kernel
/// module to `os`.
/// math functions need libdevice: CUDA_ROOT names the toolkit
/// (/usr/local/cuda when unset and present). With a non-null `plan`, the
/// launch plan (LaunchPlan.h) is written to it.
LogicalResult
translateToPTX(ModuleOp module, raw_ostream &os, raw_ostream *plan = nullptr,
               const CodaToPTXPipelineOptions &options = {});

/// Assembles `ptx` with `$CUDA_ROOT/bin/ptxas -arch=sm_90a` (CUDA_ROOT
/// defaulting to /usr/local/cuda) and writes the cubin to `os`. A missing
/// ptxas or a failing assembly is reported at `loc`.
LogicalResult assemblePTX(Location loc, StringRef ptx, raw_ostream &os);

/// Compiles `module` as `translateToPTX` does and writes the cubin
/// `assemblePTX` makes of the PTX to `os`.
LogicalResult
translateToCubin(ModuleOp module, raw_ostream &os, raw_ostream *plan = nullptr,
                 const CodaToPTXPipelineOptions &options = {});

/// Registers the `coda-to-ptx` and `coda-to-cubin` translations of
/// coda-translate.
void registerPTXTranslation();

} // namespace mlir::coda

#endif // CODA_TARGET_PTX_PTX_H
