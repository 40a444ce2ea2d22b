//===- Bundle.h - a kernel image and its launch plan ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_BUNDLE_H
#define CODA_RUNTIME_BUNDLE_H

#include "Module.h"

#include <map>
#include <memory>
#include <mutex>

namespace coda::runtime {

/// A kernel image and its plan, checked against each other; the image is
/// loaded into each context that launches it, on first use.
class Bundle {
public:
  /// Reads the image and the plan from files.
  static Status load(const std::string &imagePath, const std::string &planPath,
                     std::shared_ptr<Bundle> &bundle);
  /// Takes the image and the plan as bytes; the sources name them in
  /// messages.
  static Status create(std::string image, std::string_view plan,
                       const std::string &imageSource,
                       const std::string &planSource,
                       std::shared_ptr<Bundle> &bundle);

  const LaunchPlan &getPlan() const { return plan; }

  /// The image loaded into `context`, which is current.
  Status getModule(const Driver &driver, CUcontext context,
                   const Module *&module);

private:
  Bundle() = default;

  std::string source;
  KernelImage image;
  LaunchPlan plan;
  std::mutex mutex;
  std::map<CUcontext, std::unique_ptr<Module>> modules;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_BUNDLE_H
