//===- CpuExecutor.h - run coda functions on the CPU ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_CPUEXECUTOR_H
#define CODA_RUNNER_CPUEXECUTOR_H

#include "coda/Runner/Entry.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class ExecutionEngine;

namespace coda {

/// A function of a coda module lowered by the CPU reference pipeline and
/// compiled in-process with MLIR's ExecutionEngine.
class CpuFunction {
public:
  /// Lowers a copy of `module` and compiles its function `name`. With
  /// `computeInF64`, every floating-point tensor becomes f64 (the
  /// reference). Problems are reported through the context's diagnostics.
  static FailureOr<std::unique_ptr<CpuFunction>>
  compile(ModuleOp module, llvm::StringRef name, bool computeInF64);

  ~CpuFunction();

  llvm::ArrayRef<TensorSignature> getArguments() const { return arguments; }
  llvm::ArrayRef<TensorSignature> getResults() const { return results; }

  /// Runs the function. Each input is converted to its argument's element
  /// kind; shapes must match the signature, and all dynamic row counts must
  /// agree.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs) const;

private:
  CpuFunction() = default;

  std::unique_ptr<ExecutionEngine> engine;
  std::string name;
  llvm::SmallVector<TensorSignature> arguments;
  llvm::SmallVector<TensorSignature> results;
};

} // namespace coda
} // namespace mlir

#endif // CODA_RUNNER_CPUEXECUTOR_H
