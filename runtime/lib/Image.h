//===- Image.h - a kernel image: PTX text or a cubin ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_IMAGE_H
#define CODA_RUNTIME_IMAGE_H

#include "LaunchPlan.h"

#include <string>

namespace coda::runtime {

/// What cuModuleLoadData will read.
struct KernelImage {
  enum class Format { PTX, Cubin };

  Format format;
  /// The image; PTX ends in a NUL, as the driver needs.
  std::string bytes;
};

/// Takes `bytes` as a kernel image for `plan`: an ELF cubin, or PTX whose
/// `.target` is the plan's and whose `.entry`s include every kernel of the
/// plan, a GEMM's kernel of wide tiles too, each with the parameters its
/// plan arguments are launched as (an i32 for a row count, a 64-bit address
/// for any other), as many and of the same sizes. A cubin is not read: its
/// kernels are looked up when it is loaded, and their parameters are not
/// checked. `source` names the image in messages.
Status readKernelImage(std::string bytes, const std::string &source,
                       const LaunchPlan &plan, KernelImage &image);

} // namespace coda::runtime

#endif // CODA_RUNTIME_IMAGE_H
