//===- Module.cpp - a kernel image loaded into a CUDA context -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Module.h"

using namespace coda::runtime;

/// Fails with CodaErrorArchMismatch unless `device` runs `target`: exactly
/// its compute capability for an arch-specific target (sm_90a), else that
/// capability or a later one.
static Status checkArchitecture(const Driver &driver, CUdevice device,
                                const Target &target) {
  int major, minor;
  if (CUresult result = driver.cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device))
    return driver.fail(result, "querying the device's compute capability");
  if (CUresult result = driver.cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device))
    return driver.fail(result, "querying the device's compute capability");
  bool runs = target.archSpecific
                  ? major == target.major && minor == target.minor
                  : major * 10 + minor >= target.major * 10 + target.minor;
  if (runs)
    return Status();
  char name[256] = "";
  driver.cuDeviceGetName(name, sizeof(name), device);
  std::string capability =
      std::to_string(target.major) + "." + std::to_string(target.minor);
  std::string needs =
      target.archSpecific
          ? "runs on compute capability " + capability + " only"
          : "needs compute capability " + capability + " or later";
  return Status(CodaErrorArchMismatch,
                "the kernels are for " + target.name + ", which " + needs +
                    "; device " + std::to_string(device) + " (" + name +
                    ") has " + std::to_string(major) + "." +
                    std::to_string(minor));
}

Status Module::load(const Driver &driver, CUcontext context,
                    const KernelImage &image, const LaunchPlan &plan,
                    const std::string &source,
                    std::unique_ptr<Module> &module) {
  CUdevice device;
  if (CUresult result = driver.cuCtxGetDevice(&device))
    return driver.fail(result, "finding the context's device");
  if (Status status = checkArchitecture(driver, device, plan.target))
    return status;

  std::unique_ptr<Module> loaded(new Module(driver, context));
  int multiprocessors;
  if (CUresult result = driver.cuDeviceGetAttribute(
          &multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device))
    return driver.fail(result, "querying the device's multiprocessors");
  loaded->multiprocessors = multiprocessors;
  if (CUresult result =
          driver.cuModuleLoadData(&loaded->module, image.bytes.data()))
    return driver.fail(result, "loading kernel image '" + source + "'");

  auto load = [&](const Function &function, const Kernel &kernel) -> Status {
    CUfunction handle;
    if (CUresult result = driver.cuModuleGetFunction(&handle, loaded->module,
                                                     kernel.name.c_str())) {
      std::string what =
          "kernel '" + kernel.name + "' of function '" + function.name + "'";
      if (result == CUDA_ERROR_NOT_FOUND)
        return Status(CodaErrorUnknownKernel,
                      what + " is not in kernel image '" + source +
                          "': " + driver.describe(result));
      return driver.fail(result, "looking up " + what);
    }
    if (kernel.sharedBytes != 0)
      if (CUresult result = driver.cuFuncSetAttribute(
              handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              int(kernel.sharedBytes)))
        return driver.fail(result, "allowing kernel '" + kernel.name + "' " +
                                       std::to_string(kernel.sharedBytes) +
                                       " bytes of dynamic shared memory");
    loaded->kernels[kernel.name] = handle;
    return Status();
  };
  for (const Function &function : plan.functions)
    for (const Step &step : function.steps) {
      const auto *kernel = std::get_if<Kernel>(&step);
      if (!kernel)
        continue;
      if (Status status = load(function, *kernel))
        return status;
      if (kernel->wide)
        if (Status status = load(function, *kernel->wide))
          return status;
    }
  module = std::move(loaded);
  return Status();
}

Module::~Module() {
  if (!module)
    return;
  ContextGuard guard(driver, context);
  driver.cuModuleUnload(module);
}
