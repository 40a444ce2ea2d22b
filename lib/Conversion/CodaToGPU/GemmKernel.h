//===- GemmKernel.h - the Hopper GEMM-epilogue kernel generator -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H
#define CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H

#include "coda/Dialect/Coda/IR/CodaOps.h"

namespace mlir::coda {

/// The output tile of one CTA and the K step of the mainloop.
constexpr int64_t kTileM = 128;
constexpr int64_t kTileN = 128;
constexpr int64_t kTileK = 64;

/// Checks that the generator can take `gemm`; reports the reason on the op
/// otherwise.
LogicalResult checkGemmKernelSupport(GemmOp gemm);

/// Emits the kernel of `gemm` as a `gpu.func` named `name` at the builder's
/// insertion point (inside a `gpu.module`), with a ring of `stages` slots.
void emitGemmKernel(OpBuilder &builder, GemmOp gemm, StringRef name,
                    unsigned stages);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNEL_H
