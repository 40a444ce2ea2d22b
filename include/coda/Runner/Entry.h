//===- Entry.h - the function coda-run runs ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the executors (CpuExecutor.h, CudaExecutor.h) share about the entry
// function: its signature, the inputs checked against it, and the copy of
// the module they compile.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_ENTRY_H
#define CODA_RUNNER_ENTRY_H

#include "coda/Runner/HostTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace mlir::coda {

/// The type of one argument or result as the compiled function takes it.
struct TensorSignature {
  ElementKind kind;
  /// Sizes, with `ShapedType::kDynamic` for the row count.
  llvm::SmallVector<int64_t> shape;
};

/// Returns the signature of tensor `type` as the CPU path passes it:
/// floating-point elements become f64 with `computeInF64`. Fails for types
/// coda-run does not handle.
FailureOr<TensorSignature> getTensorSignature(Type type, bool computeInF64);

/// Sets the signatures of `func`'s arguments and results; fails, reporting
/// on `func`, at the first type coda-run does not handle.
LogicalResult
getFunctionSignature(func::FuncOp func, bool computeInF64,
                     llvm::SmallVectorImpl<TensorSignature> &arguments,
                     llvm::SmallVectorImpl<TensorSignature> &results);

/// Checks `inputs` against the `arguments` of @`name` (count, shapes,
/// float or integer, one row count) and returns them converted to the
/// arguments' element kinds. `rows` is set to the row count of the
/// arguments that have one, else `ShapedType::kDynamic`.
llvm::Expected<std::vector<HostTensor>>
convertInputs(llvm::StringRef name, llvm::ArrayRef<TensorSignature> arguments,
              llvm::ArrayRef<HostTensor> inputs, int64_t &rows);

/// Returns a copy of `module` holding only its function `name`: coda
/// functions call none, so the others need not compile.
OwningOpRef<ModuleOp> cloneEntry(ModuleOp module, llvm::StringRef name);

} // namespace mlir::coda

#endif // CODA_RUNNER_ENTRY_H
