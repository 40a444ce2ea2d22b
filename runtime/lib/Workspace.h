//===- Workspace.h - the memory of a function's intermediates ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_WORKSPACE_H
#define CODA_RUNTIME_WORKSPACE_H

#include "Driver.h"
#include "LaunchPlan.h"

#include <vector>

namespace coda::runtime {

/// One allocation holding every storage the workspace provides, sized for
/// the largest row count reserved so far.
class Workspace {
public:
  /// Each storage starts at a multiple of this.
  static constexpr uint64_t kAlignment = 256;

  /// The size of `function`'s workspace over `rows` rows and where each
  /// storage it provides starts. Fails with CodaErrorInvalidRows when the
  /// size overflows.
  static Status layout(const Function &function, int64_t rows,
                       std::vector<uint64_t> &offsets, uint64_t &bytes);

  /// Makes the workspace hold `rows` rows. A larger workspace replaces the
  /// old one once the launches on `stream`, which may still use it, are
  /// done. `context` is current.
  Status reserve(const Driver &driver, CUcontext context,
                 const Function &function, int64_t rows, CUstream stream);

  /// Where `storage`, which the workspace provides, starts.
  CUdeviceptr getAddress(size_t storage) const {
    return memory.getAddress() + offsets[storage];
  }

private:
  DeviceMemory memory;
  int64_t rows = 0;
  std::vector<uint64_t> offsets;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_WORKSPACE_H
