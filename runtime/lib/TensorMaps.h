//===- TensorMaps.h - tensor maps in device memory --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GEMM kernels take each tensor map as a pointer to a CUtensorMap in
// global memory (a .u64 parameter), as bench/gemm_kernel_check.py passes
// them: the runtime encodes each map once, copies it to the device, and
// hands later launches the same copy.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_TENSORMAPS_H
#define CODA_RUNTIME_TENSORMAPS_H

#include "Driver.h"
#include "LaunchPlan.h"

#include <map>
#include <tuple>
#include <vector>

namespace coda::runtime {

/// Tensor maps in device memory, one per buffer address, row count and box.
/// A map is a pure function of those, so an entry never goes stale; the
/// cache only grows, by 128 bytes per distinct map.
class TensorMapCache {
public:
  /// Device memory is taken this many maps at a time.
  static constexpr size_t kMapsPerChunk = 64;

  /// Sets `map` to the device address of the tensor map over `buffer` at
  /// `address` with `rows` rows, read in `argument`'s box: 128-byte swizzle,
  /// 256-byte L2 promotion, zeros out of bounds. A new map is encoded and
  /// copied to the device on `stream`, ahead of the kernel that reads it.
  /// `context` is current; `kernel` names the reader in messages.
  Status get(const Driver &driver, CUcontext context, CUstream stream,
             const Buffer &buffer, CUdeviceptr address, int64_t rows,
             const TensorMapArgument &argument, const std::string &kernel,
             CUdeviceptr &map);

private:
  /// The address, rows, columns, element type and box of a map.
  using Key = std::tuple<CUdeviceptr, int64_t, int64_t, ElementType, uint32_t,
                         uint32_t>;

  /// A free slot for a map in device memory.
  Status allocateSlot(const Driver &driver, CUcontext context,
                      CUdeviceptr &slot);

  std::map<Key, CUdeviceptr> maps;
  std::vector<DeviceMemory> chunks;
  size_t usedInLastChunk = kMapsPerChunk;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_TENSORMAPS_H
