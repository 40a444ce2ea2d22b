//===- Session.h - one function of a bundle, bound and launched -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_SESSION_H
#define CODA_RUNTIME_SESSION_H

#include "Bundle.h"
#include "TensorMaps.h"
#include "Workspace.h"

#include <map>

namespace coda::runtime {

/// A function of a bundle with the caller's buffers bound, the workspace
/// it owns and the tensor maps it has encoded. Everything that needs no
/// GPU (binding, checking a launch) works without a driver; the first
/// launch or reserve ties the session to its stream's context.
class Session {
public:
  Session(std::shared_ptr<Bundle> bundle, const Function &function);

  const Function &getFunction() const { return function; }

  /// Binds the buffer named `name`, and so every buffer of its storage, to
  /// `address`, checking the alignment its kernels need.
  Status bind(std::string_view name, CUdeviceptr address);
  void unbindAll();
  void setBoundaryCallback(CodaBoundaryCallback callback, void *userData);

  /// The workspace `rows` rows need.
  Status getWorkspaceBytes(int64_t rows, uint64_t &bytes) const;
  /// Loads the module and allocates the workspace for `rows` rows.
  Status reserve(int64_t rows, CUstream stream);
  /// Enqueues the function over `rows` rows on `stream`.
  Status launch(int64_t rows, CUstream stream);

private:
  /// What a launch needs and can be checked without a GPU: the row count,
  /// the bindings and the boundary callback.
  Status checkLaunch(int64_t rows) const;
  /// Opens the driver, makes the stream's context current, loads the
  /// module and reserves the workspace, then runs `body(driver, module)`.
  template <typename Body>
  Status withDevice(int64_t rows, CUstream stream, Body body);
  /// Where buffer `buffer` is: bound, or in the workspace.
  CUdeviceptr getAddress(size_t buffer) const;
  Status launchKernel(const Driver &driver, const Module &module,
                      const Kernel &kernel, int64_t rows, CUstream stream);
  Status runBoundary(const Boundary &boundary, size_t step, int64_t rows,
                     CUstream stream) const;
  /// Allocates and zeroes, once, the scratch of every kernel that takes
  /// one.
  Status reserveScratch(const Driver &driver, CUstream stream);

  std::shared_ptr<Bundle> bundle;
  const Function &function;
  /// Per storage: the bound address, or 0.
  std::vector<CUdeviceptr> bound;
  CodaBoundaryCallback callback = nullptr;
  void *userData = nullptr;
  /// The context of the first launch or reserve.
  CUcontext context = nullptr;
  Workspace workspace;
  TensorMapCache tensorMaps;
  /// The kernels' scratch, one allocation, and each scratch argument's
  /// address in it.
  DeviceMemory scratch;
  std::map<const ScratchArgument *, CUdeviceptr> scratchAddresses;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_SESSION_H
