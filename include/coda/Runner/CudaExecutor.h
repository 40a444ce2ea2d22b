//===- CudaExecutor.h - run coda functions on a CUDA GPU --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Built only where the CODA runtime is (CODA_HAVE_CUDA_RUNNER).
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_CUDAEXECUTOR_H
#define CODA_RUNNER_CUDAEXECUTOR_H

#include "coda/Runner/Entry.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

struct CodaSession;

namespace mlir::coda {

/// A function of a coda module compiled in-process to PTX and its launch
/// plan, run through the CODA runtime's C API on CUDA device 0 (its
/// primary context, the legacy default stream).
class CudaFunction {
public:
  /// Compiles a copy of `module`'s function `name` with translateToPTX and
  /// loads the bundle; needs no driver. Functions with coda.attention, a
  /// boundary step the caller must run, are refused. Problems of the
  /// compilation are reported through the context's diagnostics too.
  static llvm::Expected<std::unique_ptr<CudaFunction>>
  compile(ModuleOp module, llvm::StringRef name);

  /// Frees the device memory and releases the context.
  ~CudaFunction();

  /// Uploads `inputs` (converted to the argument types) to fresh device
  /// buffers, launches once and downloads the results. Call it once.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs);

  /// After run(): one more launch to warm up, then `iterations` launches
  /// on the same buffers, each timed between two CUDA events; returns the
  /// median in milliseconds.
  llvm::Expected<double> benchmark(unsigned iterations);

private:
  CudaFunction() = default;

  /// Allocates `bytes` of device memory, owned by the function.
  llvm::Expected<uint64_t> allocate(size_t bytes);
  /// Uploads the inputs and binds the arguments.
  llvm::Error bindArguments(llvm::ArrayRef<HostTensor> converted);
  /// Binds fresh memory to each result not bound yet.
  llvm::Error bindResults();
  /// Downloads the results of the last launch.
  llvm::Expected<std::vector<HostTensor>> downloadResults();

  std::string name;
  llvm::SmallVector<TensorSignature> arguments;
  llvm::SmallVector<TensorSignature> results;
  CodaSession *session = nullptr;
  bool retainedContext = false;
  /// The row count of the launches.
  int64_t rows = 0;
  /// The device address of each memory bound, by the buffer that owns it
  /// (the one the bound buffer is a view of, else itself).
  llvm::StringMap<uint64_t> addresses;
  std::vector<uint64_t> allocations;
};

} // namespace mlir::coda

#endif // CODA_RUNNER_CUDAEXECUTOR_H
