//===- Driver.cpp - the CUDA driver, opened at run time -------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

using namespace coda::runtime;

#define CODA_STRINGIFY_EXPANDED(name) #name
#define CODA_STRINGIFY(name) CODA_STRINGIFY_EXPANDED(name)

std::string Driver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  if (!name)
    return "CUDA error " + std::to_string(int(result));
  return std::string(name) + " (" + (text ? text : "no description") + ")";
}

Status Driver::fail(CUresult result, const std::string &what) const {
  CodaStatus code = CodaErrorCuda;
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    code = CodaErrorOutOfMemory;
  else if (result == CUDA_ERROR_NO_DEVICE)
    code = CodaErrorNoDevice;
  else if (result == CUDA_ERROR_INVALID_CONTEXT)
    code = CodaErrorContext;
  return Status(code, what + ": " + describe(result));
}

std::string coda::runtime::formatAddress(CUdeviceptr address) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx", (unsigned long long)address);
  return text;
}

namespace {
/// The opened driver and the outcome of opening it.
struct LoadedDriver {
  Driver driver;
  Status status;
};
} // namespace

/// Sets `entry` to the library's `symbol`; false when it has none.
template <typename EntryPoint>
static bool lookup(void *library, const char *symbol, EntryPoint &entry) {
  entry = reinterpret_cast<EntryPoint>(dlsym(library, symbol));
  return entry != nullptr;
}

/// Opens and initializes the driver named by $CODA_RUNTIME_LIBCUDA, else
/// libcuda.so.1. It stays open for the life of the process.
static LoadedDriver loadDriver() {
  LoadedDriver loaded;
  const char *path = std::getenv("CODA_RUNTIME_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    loaded.status = Status(CodaErrorNoDriver,
                           std::string("no CUDA driver: cannot open '") + path +
                               "': " + (reason ? reason : "unknown error"));
    return loaded;
  }
  Driver &driver = loaded.driver;
  const char *missing = nullptr;
#define CODA_DRIVER_LOOKUP(name)                                               \
  if (!missing && !lookup(library, CODA_STRINGIFY(name), driver.name))         \
    missing = CODA_STRINGIFY(name);
  CODA_DRIVER_ENTRY_POINTS(CODA_DRIVER_LOOKUP)
#undef CODA_DRIVER_LOOKUP
  if (missing) {
    loaded.status =
        Status(CodaErrorNoDriver, std::string("the CUDA driver '") + path +
                                      "' has no " + missing +
                                      "; the runtime needs CUDA 12 or later");
    return loaded;
  }

  if (CUresult result = driver.cuInit(0)) {
    loaded.status = driver.fail(result, "initializing the CUDA driver '" +
                                            std::string(path) + "' (cuInit)");
    if (loaded.status.getCode() == CodaErrorNoDevice)
      loaded.status = Status(CodaErrorNoDevice,
                             "no CUDA device: " + loaded.status.getMessage());
  }
  return loaded;
}

Status coda::runtime::getDriver(const Driver *&driver) {
  static const LoadedDriver loaded = loadDriver();
  driver = &loaded.driver;
  return loaded.status;
}

Status coda::runtime::getStreamContext(const Driver &driver, CUstream stream,
                                       CUcontext &context) {
  context = nullptr;
  CUresult result = driver.cuStreamGetCtx(stream, &context);
  if (result == CUDA_ERROR_INVALID_CONTEXT || (!result && !context))
    return Status(CodaErrorContext,
                  "no CUDA context: the stream is the legacy default stream "
                  "and no context is current on this thread (use the GPU "
                  "first, e.g. through torch, or pass a stream)");
  if (result)
    return driver.fail(result, "finding the stream's CUDA context");
  return Status();
}

ContextGuard::ContextGuard(const Driver &driver, CUcontext context)
    : driver(driver), pushed(driver.cuCtxPushCurrent(context) == CUDA_SUCCESS) {
}

ContextGuard::~ContextGuard() {
  CUcontext popped;
  if (pushed)
    driver.cuCtxPopCurrent(&popped);
}

DeviceMemory &DeviceMemory::operator=(DeviceMemory &&other) noexcept {
  if (this != &other) {
    reset();
    driver = other.driver;
    context = other.context;
    address = other.address;
    other.address = 0;
  }
  return *this;
}

Status DeviceMemory::allocate(const Driver &driver, CUcontext context,
                              size_t bytes, const std::string &what,
                              DeviceMemory &memory) {
  CUdeviceptr address;
  if (CUresult result = driver.cuMemAlloc(&address, bytes))
    return driver.fail(result, "allocating " + std::to_string(bytes) +
                                   " bytes of device memory for " + what);
  memory.reset();
  memory.driver = &driver;
  memory.context = context;
  memory.address = address;
  return Status();
}

void DeviceMemory::reset() {
  if (!address)
    return;
  // Freeing is best effort: at exit the context may be gone already.
  ContextGuard guard(*driver, context);
  driver->cuMemFree(address);
  address = 0;
}
