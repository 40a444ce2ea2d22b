//===- FakeCuda.cpp - a traced stand-in for libcuda.so.1 ------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The entry points the runtime opens, enough to run its launch path on a
// machine without a GPU: each call that matters prints a line to stdout
// ("cuda: ..."), device memory is addresses without storage, and a launch
// prints its grid and parameters, which it reads as the PTX declares them
// (a tensor map argument shows as the map# it was uploaded from). Copies
// to the host fill the destination with zeros; events are numbered in
// creation order, and any two are 0.25 ms apart.
//
// CODA_FAKE_CUDA, a comma-separated list, changes the device:
//   no-device   cuInit fails with CUDA_ERROR_NO_DEVICE
//   no-context  no context is current
//   contexts    each stream's context is a new one
//   cc=N        compute capability N / 10 . N % 10 (default 90: 9.0)
//   memory=N    N bytes of device memory in all (default: unbounded)
//   fail=ENTRY  every call of the entry point ENTRY (cuLaunchKernelEx, ...)
//               fails with CUDA_ERROR_UNKNOWN
//   fail=ENTRY@N  only its N-th call (from 1) fails
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  bool noDevice = false;
  bool noContext = false;
  bool contexts = false;
  /// Per entry point that fails, the call that fails (0: every call).
  std::map<std::string, unsigned long, std::less<>> failures;
  int major = 9;
  int minor = 0;
  unsigned long long memory = ~0ull;
};

Options readOptions() {
  Options options;
  const char *text = std::getenv("CODA_FAKE_CUDA");
  std::string_view list = text ? text : "";
  while (!list.empty()) {
    std::string_view item = list.substr(0, list.find(','));
    list.remove_prefix(std::min(list.size(), item.size() + 1));
    std::string value(item.substr(item.find('=') + 1));
    if (item == "no-device")
      options.noDevice = true;
    else if (item == "no-context")
      options.noContext = true;
    else if (item == "contexts")
      options.contexts = true;
    else if (item.substr(0, 5) == "fail=") {
      size_t at = value.find('@');
      options.failures[value.substr(0, at)] =
          at == std::string::npos
              ? 0
              : std::strtoul(value.c_str() + at + 1, nullptr, 10);
    } else if (item.substr(0, 3) == "cc=") {
      int capability = std::atoi(value.c_str());
      options.major = capability / 10;
      options.minor = capability % 10;
    } else if (item.substr(0, 7) == "memory=")
      options.memory = std::strtoull(value.c_str(), nullptr, 10);
  }
  return options;
}

const Options &getOptions() {
  static const Options options = readOptions();
  return options;
}

/// CUDA_ERROR_UNKNOWN where CODA_FAKE_CUDA makes this call of `entry`
/// fail, else CUDA_SUCCESS. Counts the entry point's calls. `entry` is the
/// defining function's name, which cuda.h may have versioned
/// (cuMemcpyHtoDAsync_v2); CODA_FAKE_CUDA names the API's.
CUresult injectedFailure(std::string_view entry) {
  static std::map<std::string, unsigned long, std::less<>> calls;
  size_t version = entry.rfind("_v");
  if (version != std::string_view::npos)
    entry = entry.substr(0, version);
  auto failure = getOptions().failures.find(entry);
  if (failure == getOptions().failures.end())
    return CUDA_SUCCESS;
  unsigned long call = ++calls[std::string(entry)];
  return failure->second == 0 || failure->second == call ? CUDA_ERROR_UNKNOWN
                                                         : CUDA_SUCCESS;
}

/// A kernel: its name and the sizes of its parameters, from the PTX.
struct Kernel {
  std::string name;
  std::vector<size_t> paramSizes;
};

struct Module {
  std::vector<std::unique_ptr<Kernel>> kernels;
};

/// The size of the parameter a PTX `.param` line declares.
size_t getParamSize(std::string_view line) {
  size_t bracket = line.find('[');
  if (bracket != std::string_view::npos)
    return std::strtoul(std::string(line.substr(bracket + 1)).c_str(), nullptr,
                        10);
  for (const char *wide : {".u64", ".b64", ".s64"})
    if (line.find(wide) != std::string_view::npos)
      return 8;
  return 4;
}

/// The entries of PTX text and their parameters.
void scanEntries(std::string_view text, Module &module) {
  Kernel *current = nullptr;
  while (!text.empty()) {
    std::string_view line = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), line.size() + 1));
    size_t entry = line.find(".entry ");
    if (entry != std::string_view::npos) {
      std::string_view name = line.substr(entry + 7);
      name = name.substr(0, name.find_first_of("( \t"));
      module.kernels.push_back(std::make_unique<Kernel>());
      current = module.kernels.back().get();
      current->name = std::string(name);
      if (line.find(')') != std::string_view::npos)
        current = nullptr;
      continue;
    }
    if (!current)
      continue;
    if (line.find(".param") != std::string_view::npos)
      current->paramSizes.push_back(getParamSize(line));
    if (line.find(')') != std::string_view::npos)
      current = nullptr;
  }
}

constexpr unsigned long long kMapMagic = 0xC0DA7A9ull;
/// The number of tensor maps encoded so far: the next map#.
size_t encodedMaps = 0;
/// The map# of each device address a tensor map was copied to.
std::map<CUdeviceptr, size_t> uploadedMaps;
CUdeviceptr nextAddress = 0x7f0000000000ull;
unsigned long long allocated = 0;
/// The number of events created so far: the last event#.
size_t createdEvents = 0;
uintptr_t currentContext = 0xC0;

const char *getTypeName(CUtensorMapDataType type) {
  switch (type) {
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return "bf16";
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    return "f16";
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    return "f32";
  default:
    return "other";
  }
}

} // namespace

CUresult CUDAAPI cuInit(unsigned int) {
  // Line by line, so that the trace keeps its place among the output of a
  // caller that buffers its own (coda-run's llvm::outs()).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  return getOptions().noDevice ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

/// The errors the stand-in returns, with the driver's names and texts.
struct ErrorText {
  CUresult error;
  const char *name, *text;
};
static const ErrorText kErrorTexts[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
     "invalid device context"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
     "invalid device ordinal"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static const ErrorText *findErrorText(CUresult error) {
  for (const ErrorText &entry : kErrorTexts)
    if (entry.error == error)
      return &entry;
  return nullptr;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **name) {
  const ErrorText *entry = findErrorText(error);
  *name = entry ? entry->name : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **text) {
  const ErrorText *entry = findErrorText(error);
  *text = entry ? entry->text : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                      CUdevice) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = getOptions().major;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = getOptions().minor;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuDeviceGetName(char *name, int length, CUdevice) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::snprintf(name, size_t(length), "Fake CUDA device");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext) {
  return injectedFailure(__func__);
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *context) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  *context = reinterpret_cast<CUcontext>(currentContext);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext) {
  return injectedFailure(__func__);
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  *context = reinterpret_cast<CUcontext>(currentContext);
  std::printf("cuda: retain the primary context of device %d\n", device);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice device) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::printf("cuda: release the primary context of device %d\n", device);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamGetCtx(CUstream, CUcontext *context) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  if (getOptions().noContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (getOptions().contexts)
    currentContext += 0x10;
  *context = reinterpret_cast<CUcontext>(currentContext);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::printf("cuda: synchronize\n");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  auto *loaded = new Module();
  const char *text = static_cast<const char *>(image);
  bool cubin = std::memcmp(text,
                           "\x7f"
                           "ELF",
                           4) == 0;
  // A cubin's kernels are not read: every lookup in it fails.
  if (!cubin)
    scanEntries(text, *loaded);
  std::printf("cuda: load module (%s, %zu entries)\n", cubin ? "cubin" : "ptx",
              loaded->kernels.size());
  *module = reinterpret_cast<CUmodule>(loaded);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  delete reinterpret_cast<Module *>(module);
  std::printf("cuda: unload module\n");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *name) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  for (auto &kernel : reinterpret_cast<Module *>(module)->kernels)
    if (kernel->name == name) {
      *function = reinterpret_cast<CUfunction>(kernel.get());
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction function,
                                    CUfunction_attribute attribute, int value) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_ERROR_INVALID_VALUE;
  std::printf("cuda: %s may use %d bytes of dynamic shared memory\n",
              reinterpret_cast<Kernel *>(function)->name.c_str(), value);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *address, size_t bytes) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  if (bytes > getOptions().memory - allocated)
    return CUDA_ERROR_OUT_OF_MEMORY;
  allocated += bytes;
  *address = nextAddress;
  nextAddress += (bytes + 0xFFFF) / 0x10000 * 0x10000;
  std::printf("cuda: allocate %zu bytes at 0x%llx\n", bytes,
              (unsigned long long)*address);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr address) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::printf("cuda: free 0x%llx\n", (unsigned long long)address);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr destination, const void *source,
                                   size_t bytes, CUstream) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  CUtensorMap map;
  if (bytes == sizeof(map)) {
    std::memcpy(&map, source, sizeof(map));
    if (map.opaque[1] == kMapMagic) {
      uploadedMaps[destination] = size_t(map.opaque[0]);
      std::printf("cuda: copy map#%zu to 0x%llx\n", size_t(map.opaque[0]),
                  (unsigned long long)destination);
      return CUDA_SUCCESS;
    }
  }
  std::printf("cuda: copy %zu bytes to 0x%llx\n", bytes,
              (unsigned long long)destination);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoHAsync(void *destination, CUdeviceptr source,
                                   size_t bytes, CUstream) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::memset(destination, 0, bytes);
  std::printf("cuda: copy %zu bytes from 0x%llx to the host\n", bytes,
              (unsigned long long)source);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr destination, unsigned char value,
                                 size_t bytes, CUstream) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::printf("cuda: set %zu bytes at 0x%llx to %u\n", bytes,
              (unsigned long long)destination, unsigned(value));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  *event = reinterpret_cast<CUevent>(++createdEvents);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent) { return injectedFailure(__func__); }

CUresult CUDAAPI cuEventRecord(CUevent event, CUstream) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  std::printf("cuda: record event#%zu\n", reinterpret_cast<size_t>(event));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent) {
  return injectedFailure(__func__);
}

CUresult CUDAAPI cuEventElapsedTime(float *milliseconds, CUevent, CUevent) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  *milliseconds = 0.25f;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion promotion,
    CUtensorMapFloatOOBfill fill) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  if (rank != 2 || elementStrides[0] != 1 || elementStrides[1] != 1 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(map, 0, sizeof(*map));
  map->opaque[0] = encodedMaps;
  map->opaque[1] = kMapMagic;
  std::printf(
      "cuda: encode map#%zu: %s at 0x%llx, dims [%llu, %llu], row stride "
      "%llu, box [%u, %u]%s%s%s\n",
      encodedMaps++, getTypeName(type),
      (unsigned long long)reinterpret_cast<uintptr_t>(address),
      (unsigned long long)dims[0], (unsigned long long)dims[1],
      (unsigned long long)strides[0], box[0], box[1],
      swizzle == CU_TENSOR_MAP_SWIZZLE_128B ? ", swizzle 128B" : "",
      promotion == CU_TENSOR_MAP_L2_PROMOTION_L2_256B ? ", L2 256B" : "",
      fill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? ", zero fill" : "");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config,
                                  CUfunction function, void **params, void **) {
  if (CUresult failure = injectedFailure(__func__))
    return failure;
  const Kernel &kernel = *reinterpret_cast<Kernel *>(function);
  std::printf("cuda: launch %s grid [%u, %u, %u] block [%u, %u, %u] shared "
              "%u:",
              kernel.name.c_str(), config->gridDimX, config->gridDimY,
              config->gridDimZ, config->blockDimX, config->blockDimY,
              config->blockDimZ, config->sharedMemBytes);
  for (size_t i = 0; i < kernel.paramSizes.size(); ++i) {
    const char *separator = i == 0 ? " " : ", ";
    if (kernel.paramSizes[i] == 4) {
      int32_t value;
      std::memcpy(&value, params[i], sizeof(value));
      std::printf("%s%d", separator, value);
    } else if (kernel.paramSizes[i] == 8) {
      CUdeviceptr value;
      std::memcpy(&value, params[i], sizeof(value));
      auto map = uploadedMaps.find(value);
      if (map != uploadedMaps.end())
        std::printf("%smap#%zu", separator, map->second);
      else
        std::printf("%s0x%llx", separator, (unsigned long long)value);
    } else {
      std::printf("%s<%zu bytes>", separator, kernel.paramSizes[i]);
    }
  }
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id ==
            CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
        config->attrs[i].value.programmaticStreamSerializationAllowed)
      std::printf("; dependent");
  std::printf("\n");
  return CUDA_SUCCESS;
}
