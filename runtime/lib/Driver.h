//===- Driver.h - the CUDA driver, opened at run time -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libcuda.so.1 (or $CODA_RUNTIME_LIBCUDA) is opened with dlopen on first
// use, so the runtime links and runs on machines without a driver; there
// every call that needs the GPU fails with CodaErrorNoDriver.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_DRIVER_H
#define CODA_RUNTIME_DRIVER_H

#include "Status.h"

#include <string>

namespace coda::runtime {

// The entry points the runtime calls. cuda.h maps some names to versioned
// symbols (cuMemAlloc to cuMemAlloc_v2); the members and the symbols
// looked up follow the same mapping.
#define CODA_DRIVER_ENTRY_POINTS(X)                                            \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetName)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuStreamGetCtx)                                                            \
  X(cuStreamSynchronize)                                                       \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemsetD8Async)                                                           \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuLaunchKernelEx)

/// The driver's entry points.
struct Driver {
#define CODA_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  CODA_DRIVER_ENTRY_POINTS(CODA_DRIVER_MEMBER)
#undef CODA_DRIVER_MEMBER

  /// `result` as "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string describe(CUresult result) const;

  /// A failed call as a status: CodaErrorOutOfMemory, CodaErrorNoDevice,
  /// CodaErrorContext (no current context) or CodaErrorCuda, with the
  /// message "<what>: <describe(result)>".
  Status fail(CUresult result, const std::string &what) const;
};

/// `address` as "0x7f0000000000", for messages.
std::string formatAddress(CUdeviceptr address);

/// The driver, opened and initialized (cuInit) by the first call; every
/// call returns the first one's outcome.
Status getDriver(const Driver *&driver);

/// The context of `stream`: its own, or for the legacy default stream (0)
/// the current one. Fails with CodaErrorContext when there is none.
Status getStreamContext(const Driver &driver, CUstream stream,
                        CUcontext &context);

/// Makes a context current on this thread for the guard's lifetime.
class ContextGuard {
public:
  ContextGuard(const Driver &driver, CUcontext context);
  ~ContextGuard();
  ContextGuard(const ContextGuard &) = delete;
  ContextGuard &operator=(const ContextGuard &) = delete;

private:
  const Driver &driver;
  bool pushed;
};

/// A device allocation, freed (in its context) when destroyed.
class DeviceMemory {
public:
  DeviceMemory() = default;
  DeviceMemory(DeviceMemory &&other) noexcept { *this = std::move(other); }
  DeviceMemory &operator=(DeviceMemory &&other) noexcept;
  ~DeviceMemory() { reset(); }

  /// Allocates `bytes` in `context`, which is current; `what` names the
  /// allocation in the message when it fails.
  static Status allocate(const Driver &driver, CUcontext context, size_t bytes,
                         const std::string &what, DeviceMemory &memory);

  CUdeviceptr getAddress() const { return address; }
  /// Frees the memory, if any.
  void reset();

private:
  const Driver *driver = nullptr;
  CUcontext context = nullptr;
  CUdeviceptr address = 0;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_DRIVER_H
