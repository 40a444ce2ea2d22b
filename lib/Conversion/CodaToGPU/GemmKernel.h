//===- GemmKernel.h - the Hopper GEMM-epilogue kernel generator -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H

#include "GemmKernelPlan.h"

namespace mlir::coda {

/// Emits the kernel of `gemm` as a `gpu.func` named `name` at the builder's
/// insertion point (inside a `gpu.module`), shaped by `plan`.
void emitGemmKernel(OpBuilder &builder, GemmOp gemm, StringRef name,
                    const GemmKernelPlan &plan);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H
