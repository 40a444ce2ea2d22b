//===- Module.h - a kernel image loaded into a CUDA context -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_MODULE_H
#define CODA_RUNTIME_MODULE_H

#include "Driver.h"
#include "Image.h"

#include <map>
#include <memory>

namespace coda::runtime {

/// A kernel image loaded into one context, with every kernel of its plan
/// looked up and allowed its dynamic shared memory.
class Module {
public:
  /// Loads `image` into `context`, which is current, after checking that
  /// the device can run `plan`'s target. `source` names the image in
  /// messages.
  static Status load(const Driver &driver, CUcontext context,
                     const KernelImage &image, const LaunchPlan &plan,
                     const std::string &source,
                     std::unique_ptr<Module> &module);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// The kernel named `name`, which the plan has.
  CUfunction getKernel(const std::string &name) const {
    return kernels.at(name);
  }
  /// The device's multiprocessors: the most CTAs a persistent kernel runs.
  int64_t getMultiprocessorCount() const { return multiprocessors; }

private:
  Module(const Driver &driver, CUcontext context)
      : driver(driver), context(context) {}

  const Driver &driver;
  CUcontext context;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> kernels;
  int64_t multiprocessors = 0;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_MODULE_H
