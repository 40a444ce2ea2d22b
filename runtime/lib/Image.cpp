//===- Image.cpp - a kernel image: PTX text or a cubin --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Image.h"

#include <set>
#include <string_view>

using namespace coda::runtime;

/// The identifier at the start of `text`, after blanks.
static std::string_view takeIdentifier(std::string_view text) {
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos)
    return {};
  size_t end = text.find_first_of(" \t,(", start);
  return text.substr(start, end == std::string_view::npos ? end : end - start);
}

/// The `.target` and the `.entry` names of PTX text, line by line.
static void scanPTX(std::string_view text, std::string_view &target,
                    std::set<std::string_view> &entries) {
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    line = line.substr(0, line.find("//"));
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos)
      continue;
    line = line.substr(start);
    if (line.substr(0, 8) == ".target ")
      target = takeIdentifier(line.substr(8));
    size_t entry = line.find(".entry ");
    if (entry != std::string_view::npos)
      entries.insert(takeIdentifier(line.substr(entry + 7)));
  }
}

Status coda::runtime::readKernelImage(std::string bytes,
                                      const std::string &source,
                                      const LaunchPlan &plan,
                                      KernelImage &image) {
  if (bytes.compare(0, 4,
                    "\x7f"
                    "ELF") == 0) {
    image.format = KernelImage::Format::Cubin;
    image.bytes = std::move(bytes);
    return Status();
  }

  std::string_view text(bytes);
  while (!text.empty() && text.back() == '\0')
    text.remove_suffix(1);
  std::string_view target;
  std::set<std::string_view> entries;
  if (text.find('\0') == std::string_view::npos)
    scanPTX(text, target, entries);
  if (target.empty())
    return Status(CodaErrorInvalidImage,
                  "kernel image '" + source +
                      "' is neither an ELF cubin nor PTX with a .target");
  if (target != plan.target.name)
    return Status(CodaErrorInvalidImage,
                  "kernel image '" + source + "' is PTX for " +
                      std::string(target) + " but its plan is for " +
                      plan.target.name);
  for (const Function &function : plan.functions)
    for (const Step &step : function.steps)
      if (const auto *kernel = std::get_if<Kernel>(&step);
          kernel && !entries.count(kernel->name))
        return Status(CodaErrorUnknownKernel,
                      "kernel '" + kernel->name + "' of function '" +
                          function.name +
                          "' is not an entry of kernel image '" + source + "'");

  image.format = KernelImage::Format::PTX;
  image.bytes = std::string(text) + '\0';
  return Status();
}
