//===- Session.cpp - one function of a bundle, bound and launched ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

using namespace coda::runtime;

Session::Session(std::shared_ptr<Bundle> bundle, const Function &function)
    : bundle(std::move(bundle)), function(function),
      bound(function.storages.size(), 0) {}

Status Session::bind(std::string_view name, CUdeviceptr address) {
  size_t index;
  if (Status status = function.getBuffer(name, index))
    return status;
  const Buffer &buffer = function.buffers[index];
  if (!address)
    return Status(CodaErrorInvalidArgument,
                  "buffer '" + buffer.name + "' bound to address 0");
  const Storage &storage = function.storages[buffer.storage];
  if (address % storage.alignment != 0) {
    bool mapped =
        std::any_of(storage.buffers.begin(), storage.buffers.end(),
                    [&](size_t b) { return function.buffers[b].tensorMapped; });
    return Status(
        CodaErrorMisalignedBuffer,
        "buffer '" + buffer.name + "' at " + formatAddress(address) +
            " is not " + std::to_string(storage.alignment) +
            "-byte aligned, as " +
            (mapped ? "the tensor maps over it need" : "its elements need"));
  }
  bound[buffer.storage] = address;
  return Status();
}

void Session::unbindAll() { std::fill(bound.begin(), bound.end(), 0); }

void Session::setBoundaryCallback(CodaBoundaryCallback callback,
                                  void *userData) {
  this->callback = callback;
  this->userData = userData;
}

Status Session::getWorkspaceBytes(int64_t rows, uint64_t &bytes) const {
  if (Status status = function.checkRows(rows))
    return status;
  std::vector<uint64_t> offsets;
  return Workspace::layout(function, rows, offsets, bytes);
}

Status Session::checkLaunch(int64_t rows) const {
  if (Status status = function.checkRows(rows))
    return status;

  std::string unbound;
  for (size_t i = 0; i < function.storages.size(); ++i) {
    if (bound[i] || function.storages[i].fromWorkspace)
      continue;
    for (size_t member : function.storages[i].buffers)
      if (function.buffers[member].role != CodaBufferWorkspace)
        unbound +=
            (unbound.empty() ? "" : ", ") + function.buffers[member].name;
  }
  if (!unbound.empty())
    return Status(CodaErrorUnboundBuffer, "function '" + function.name +
                                              "' cannot launch: buffers not "
                                              "bound: " +
                                              unbound);

  if (function.hasBoundary && !callback) {
    auto boundary = std::find_if(
        function.steps.begin(), function.steps.end(), [](const Step &step) {
          return std::holds_alternative<Boundary>(step);
        });
    return Status(CodaErrorNoBoundaryCallback,
                  "function '" + function.name + "' has a boundary step (" +
                      std::get<Boundary>(*boundary).op + ", step " +
                      std::to_string(boundary - function.steps.begin()) +
                      ") and no boundary callback is registered");
  }
  return Status();
}

template <typename Body>
Status Session::withDevice(int64_t rows, CUstream stream, Body body) {
  const Driver *driver;
  if (Status status = getDriver(driver))
    return status;
  CUcontext streamContext;
  if (Status status = getStreamContext(*driver, stream, streamContext))
    return status;
  if (context && context != streamContext)
    return Status(CodaErrorContext,
                  "the stream's CUDA context is not the one the session of "
                  "function '" +
                      function.name + "' was first used in");
  context = streamContext;
  ContextGuard guard(*driver, context);
  const Module *module;
  if (Status status = bundle->getModule(*driver, context, module))
    return status;
  if (Status status =
          workspace.reserve(*driver, context, function, rows, stream))
    return status;
  if (Status status = reserveScratch(*driver, stream))
    return status;
  return body(*driver, *module);
}

Status Session::reserveScratch(const Driver &driver, CUstream stream) {
  if (scratch.getAddress())
    return Status();
  // Each argument's part starts 256-byte aligned.
  std::map<const ScratchArgument *, uint64_t> offsets;
  uint64_t bytes = 0;
  for (const Step &step : function.steps)
    if (const auto *kernel = std::get_if<Kernel>(&step))
      for (const KernelArgument &argument : kernel->arguments)
        if (const auto *space = std::get_if<ScratchArgument>(&argument)) {
          offsets[space] = bytes;
          if (__builtin_add_overflow(bytes, (space->bytes + 255) / 256 * 256,
                                     &bytes))
            return Status(CodaErrorInvalidPlan,
                          "the kernels' scratch of function '" + function.name +
                              "' overflows at kernel '" + kernel->name + "'");
        }
  if (bytes == 0)
    return Status();
  if (Status status = DeviceMemory::allocate(
          driver, context, bytes,
          "the kernels' scratch of function '" + function.name + "'", scratch))
    return status;
  if (CUresult result =
          driver.cuMemsetD8Async(scratch.getAddress(), 0, bytes, stream)) {
    scratch.reset();
    return driver.fail(result, "zeroing the kernels' scratch of function '" +
                                   function.name + "'");
  }
  for (auto [space, offset] : offsets)
    scratchAddresses[space] = scratch.getAddress() + offset;
  return Status();
}

Status Session::reserve(int64_t rows, CUstream stream) {
  if (Status status = function.checkRows(rows))
    return status;
  return withDevice(rows, stream,
                    [](const Driver &, const Module &) { return Status(); });
}

Status Session::launch(int64_t rows, CUstream stream) {
  if (Status status = checkLaunch(rows))
    return status;
  return withDevice(
      rows, stream, [&](const Driver &driver, const Module &module) {
        for (size_t i = 0; i < function.steps.size(); ++i) {
          const Step &step = function.steps[i];
          if (const auto *kernel = std::get_if<Kernel>(&step)) {
            if (Status status =
                    launchKernel(driver, module, *kernel, rows, stream))
              return status;
          } else if (const auto *boundary = std::get_if<Boundary>(&step)) {
            if (Status status = runBoundary(*boundary, i, rows, stream))
              return status;
          }
          // An alias step needs nothing: its buffers share a storage.
        }
        return Status();
      });
}

CUdeviceptr Session::getAddress(size_t buffer) const {
  size_t storage = function.buffers[buffer].storage;
  return bound[storage] ? bound[storage] : workspace.getAddress(storage);
}

/// Whether $CODA_RUNTIME_SERIAL_LAUNCH is set to 1: every kernel then
/// starts only after the one before it has finished, as if no kernel waited
/// for its predecessors itself.
static bool isSerialLaunchForced() {
  static const bool forced = [] {
    const char *value = std::getenv("CODA_RUNTIME_SERIAL_LAUNCH");
    return value && std::string_view(value) == "1";
  }();
  return forced;
}

/// `kernel`, or the kernel of wide tiles beside it where those fill fewer
/// rounds of its min(tiles x splits, SMs) CTAs (both are persistent).
static const Kernel &chooseTiles(const Kernel &kernel, int64_t rows,
                                 int64_t multiprocessors) {
  if (!kernel.wide)
    return kernel;
  auto tilesOf = [&](const Kernel &candidate) {
    return (rows + candidate.rowsPerTile - 1) / candidate.rowsPerTile *
           candidate.tilesN;
  };
  int64_t tiles = tilesOf(kernel);
  int64_t ctas = std::min(tiles * kernel.splits, multiprocessors);
  auto rounds = [&](int64_t count) { return (count + ctas - 1) / ctas; };
  return rounds(tilesOf(*kernel.wide)) < rounds(tiles) ? *kernel.wide : kernel;
}

Status Session::launchKernel(const Driver &driver, const Module &module,
                             const Kernel &tallKernel, int64_t rows,
                             CUstream stream) {
  int64_t kernelRows = tallKernel.getRows(rows);
  if (kernelRows == 0)
    return Status();
  const Kernel &kernel =
      chooseTiles(tallKernel, kernelRows, module.getMultiprocessorCount());

  // Each parameter points at its value; cuLaunchKernelEx copies them.
  std::vector<int32_t> rowValues(kernel.arguments.size());
  std::vector<CUdeviceptr> addresses(kernel.arguments.size());
  std::vector<void *> params(kernel.arguments.size());
  for (size_t i = 0; i < kernel.arguments.size(); ++i) {
    const KernelArgument &argument = kernel.arguments[i];
    params[i] = &addresses[i];
    if (const auto *map = std::get_if<TensorMapArgument>(&argument)) {
      const Buffer &buffer = function.buffers[map->buffer];
      if (Status status = tensorMaps.get(
              driver, context, stream, buffer, getAddress(map->buffer),
              buffer.getRows(rows), *map, kernel.name, addresses[i]))
        return status;
    } else if (const auto *pointer = std::get_if<BufferArgument>(&argument)) {
      addresses[i] = getAddress(pointer->buffer);
    } else if (const auto *space = std::get_if<ScratchArgument>(&argument)) {
      addresses[i] = scratchAddresses.at(space);
    } else {
      rowValues[i] = int32_t(std::get<RowsArgument>(argument).resolve(rows));
      params[i] = &rowValues[i];
    }
  }

  int64_t rowTiles = (kernelRows + kernel.rowsPerTile - 1) / kernel.rowsPerTile;
  int64_t gridX = rowTiles, gridY = kernel.tilesN;
  if (kernel.persistent) {
    gridX = std::min(rowTiles * kernel.tilesN * kernel.splits,
                     module.getMultiprocessorCount());
    gridY = 1;
  }
  CUlaunchConfig config = {};
  config.gridDimX = unsigned(gridX);
  config.gridDimY = unsigned(gridY);
  config.gridDimZ = 1;
  config.blockDimX = kernel.block;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.sharedMemBytes = kernel.sharedBytes;
  config.hStream = stream;
  // A kernel that waits for the grids before it is placed on the SMs while
  // they finish.
  CUlaunchAttribute dependent = {};
  dependent.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  dependent.value.programmaticStreamSerializationAllowed = 1;
  if (kernel.dependentLaunch && !isSerialLaunchForced()) {
    config.attrs = &dependent;
    config.numAttrs = 1;
  }
  if (CUresult result = driver.cuLaunchKernelEx(
          &config, module.getKernel(kernel.name), params.data(), nullptr))
    return driver.fail(result, "launching kernel '" + kernel.name +
                                   "' on a grid of " + std::to_string(gridX) +
                                   " x " + std::to_string(gridY) + " CTAs of " +
                                   std::to_string(kernel.block) + " threads");
  return Status();
}

Status Session::runBoundary(const Boundary &boundary, size_t step, int64_t rows,
                            CUstream stream) const {
  std::vector<const char *> operandNames, resultNames;
  std::vector<CUdeviceptr> operands, results;
  for (size_t buffer : boundary.operands) {
    operandNames.push_back(function.buffers[buffer].name.c_str());
    operands.push_back(getAddress(buffer));
  }
  for (size_t buffer : boundary.results) {
    resultNames.push_back(function.buffers[buffer].name.c_str());
    results.push_back(getAddress(buffer));
  }
  CodaBoundary view = {boundary.op.c_str(),
                       step,
                       rows,
                       stream,
                       operands.size(),
                       operandNames.data(),
                       operands.data(),
                       results.size(),
                       resultNames.data(),
                       results.data()};
  if (int code = callback(userData, &view))
    return Status(CodaErrorBoundaryFailed,
                  "the boundary callback failed (returned " +
                      std::to_string(code) + ") on step " +
                      std::to_string(step) + " (" + boundary.op +
                      ") of function '" + function.name + "'");
  return Status();
}
