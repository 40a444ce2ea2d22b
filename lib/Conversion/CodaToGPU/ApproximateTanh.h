//===- ApproximateTanh.h - the GPU's tanh instruction -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_APPROXIMATETANH_H
#define CODA_LIB_CONVERSION_CODATOGPU_APPROXIMATETANH_H

#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// tanh(x) by PTX's `tanh.approx.f32` for an f32 `x` (one MUFU instruction,
/// where math.tanh lowers to libdevice's ex2, rcp and their range fix-ups),
/// math.tanh for any other type. Its error is far below the 16-bit
/// rounding of the kernels' results; the GPU kernels pass it to the scalar
/// math as their TanhBuilder, which also makes sigmoid 0.5 + 0.5 ·
/// tanh(x / 2) (bench/NOTES.md §82).
Value buildApproximateTanh(OpBuilder &builder, Location loc, Value x);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_APPROXIMATETANH_H
