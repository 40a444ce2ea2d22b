//===- Bundle.cpp - a kernel image and its launch plan --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace coda::runtime;

/// Reads the whole file at `path`; `what` says what it is in messages.
static Status readFile(const std::string &path, const char *what,
                       std::string &contents) {
  auto fail = [&] {
    return Status(CodaErrorFile, std::string("cannot read ") + what + " '" +
                                     path + "': " + std::strerror(errno));
  };
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return fail();
  contents.clear();
  char chunk[1 << 16];
  size_t read;
  while ((read = std::fread(chunk, 1, sizeof(chunk), file)) != 0)
    contents.append(chunk, read);
  bool failed = std::ferror(file);
  std::fclose(file);
  return failed ? fail() : Status();
}

Status Bundle::load(const std::string &imagePath, const std::string &planPath,
                    std::shared_ptr<Bundle> &bundle) {
  std::string image, plan;
  if (Status status = readFile(imagePath, "kernel image", image))
    return status;
  if (Status status = readFile(planPath, "launch plan", plan))
    return status;
  return create(std::move(image), plan, imagePath, planPath, bundle);
}

Status Bundle::create(std::string image, std::string_view plan,
                      const std::string &imageSource,
                      const std::string &planSource,
                      std::shared_ptr<Bundle> &bundle) {
  std::shared_ptr<Bundle> created(new Bundle());
  created->source = imageSource;
  if (Status status = parseLaunchPlan(plan, planSource, created->plan))
    return status;
  if (Status status = readKernelImage(std::move(image), imageSource,
                                      created->plan, created->image))
    return status;
  bundle = std::move(created);
  return Status();
}

Status Bundle::getModule(const Driver &driver, CUcontext context,
                         const Module *&module) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Module> &loaded = modules[context];
  if (!loaded)
    if (Status status =
            Module::load(driver, context, image, plan, source, loaded))
      return status;
  module = loaded.get();
  return Status();
}
