//===- VectorAccess.h - f32 values from and to memory -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The loads and stores of the kernels, and of the GEMM epilogues' inputs:
// consecutive elements of a bf16, f16 or f32 array, moved as one vector
// access and computed on as f32.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_VECTORACCESS_H
#define CODA_LIB_CONVERSION_CODATOGPU_VECTORACCESS_H

#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// The address of element `position` (an index) of the `type` array at
/// `base`, a pointer of any address space (global, or shared).
Value getElementAddress(OpBuilder &builder, Location loc, Value base, Type type,
                        Value position);

/// `lanes` consecutive elements of the `type` array at `base` from
/// `position`, widened to f32: one load, of a vector aligned to its size
/// when `lanes` > 1.
SmallVector<Value> loadWidened(OpBuilder &builder, Location loc, Value base,
                               Type type, Value position, int64_t lanes);

/// Rounds the f32 `values` to `type` and stores them from `position` of the
/// array at `base`: one store, of an aligned vector when there are several.
void storeNarrowed(OpBuilder &builder, Location loc, ValueRange values,
                   Value base, Type type, Value position);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_VECTORACCESS_H
