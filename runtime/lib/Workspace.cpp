//===- Workspace.cpp - the memory of a function's intermediates -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Workspace.h"

using namespace coda::runtime;

Status Workspace::layout(const Function &function, int64_t rows,
                         std::vector<uint64_t> &offsets, uint64_t &bytes) {
  offsets.assign(function.storages.size(), 0);
  bytes = 0;
  for (size_t i = 0; i < function.storages.size(); ++i) {
    if (!function.storages[i].fromWorkspace)
      continue;
    uint64_t size;
    uint64_t start = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    if (!function.getStorageBytes(i, rows, size) || start < bytes ||
        __builtin_add_overflow(start, size, &bytes))
      return Status(
          CodaErrorInvalidRows,
          "row count " + std::to_string(rows) + " for function '" +
              function.name + "': the workspace overflows at buffer '" +
              function.buffers[function.storages[i].buffers[0]].name + "'");
    offsets[i] = start;
  }
  return Status();
}

Status Workspace::reserve(const Driver &driver, CUcontext context,
                          const Function &function, int64_t rows,
                          CUstream stream) {
  if (rows <= this->rows)
    return Status();
  std::vector<uint64_t> newOffsets;
  uint64_t bytes;
  if (Status status = layout(function, rows, newOffsets, bytes))
    return status;
  if (memory.getAddress()) {
    if (CUresult result = driver.cuStreamSynchronize(stream))
      return driver.fail(result, "waiting for the launches of function '" +
                                     function.name +
                                     "' before growing its workspace");
    memory.reset();
    this->rows = 0;
  }
  if (bytes != 0)
    if (Status status = DeviceMemory::allocate(
            driver, context, bytes,
            "the workspace of function '" + function.name + "' at " +
                std::to_string(rows) + " rows",
            memory))
      return status;
  this->rows = rows;
  offsets = std::move(newOffsets);
  return Status();
}
