//===- TensorMaps.cpp - tensor maps in device memory ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TensorMaps.h"

using namespace coda::runtime;

static CUtensorMapDataType getTensorMapType(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ElementType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ElementType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ElementType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case ElementType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

Status TensorMapCache::allocateSlot(const Driver &driver, CUcontext context,
                                    CUdeviceptr &slot) {
  if (usedInLastChunk == kMapsPerChunk) {
    DeviceMemory chunk;
    if (Status status = DeviceMemory::allocate(
            driver, context, kMapsPerChunk * sizeof(CUtensorMap), "tensor maps",
            chunk))
      return status;
    chunks.push_back(std::move(chunk));
    usedInLastChunk = 0;
  }
  slot = chunks.back().getAddress() + usedInLastChunk++ * sizeof(CUtensorMap);
  return Status();
}

Status TensorMapCache::get(const Driver &driver, CUcontext context,
                           CUstream stream, const Buffer &buffer,
                           CUdeviceptr address, int64_t rows,
                           const TensorMapArgument &argument,
                           const std::string &kernel, CUdeviceptr &map) {
  int64_t columns = buffer.shape[1];
  Key key(address, rows, columns, buffer.type, argument.boxColumns,
          argument.boxRows);
  if (auto found = maps.find(key); found != maps.end()) {
    map = found->second;
    return Status();
  }

  CUtensorMap encoded;
  cuuint64_t dims[2] = {cuuint64_t(columns), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cuuint64_t(columns) * getElementSize(buffer.type)};
  cuuint32_t box[2] = {argument.boxColumns, argument.boxRows};
  cuuint32_t elementStrides[2] = {1, 1};
  if (CUresult result = driver.cuTensorMapEncodeTiled(
          &encoded, getTensorMapType(buffer.type), 2,
          reinterpret_cast<void *>(address), dims, strides, box, elementStrides,
          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
          CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) {
    return driver.fail(
        result, "encoding the tensor map of buffer '" + buffer.name + "' (" +
                    getElementTypeName(buffer.type) + " [" +
                    std::to_string(rows) + ", " + std::to_string(columns) +
                    "] at " + formatAddress(address) + ", box [" +
                    std::to_string(argument.boxColumns) + ", " +
                    std::to_string(argument.boxRows) + "]) for kernel '" +
                    kernel + "'");
  }

  CUdeviceptr slot;
  if (Status status = allocateSlot(driver, context, slot))
    return status;
  if (CUresult result =
          driver.cuMemcpyHtoDAsync(slot, &encoded, sizeof(encoded), stream))
    return driver.fail(result, "copying the tensor map of buffer '" +
                                   buffer.name + "' for kernel '" + kernel +
                                   "' to the device");
  maps.emplace(key, slot);
  map = slot;
  return Status();
}
