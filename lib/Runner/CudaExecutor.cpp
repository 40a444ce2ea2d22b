//===- CudaExecutor.cpp - run coda functions on a CUDA GPU ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The function's buffers follow the launch plan's names: argument i is
// `arg<i>`, the results are codaSessionResultName's. Each argument gets its
// own device buffer; each result too, unless its memory is bound already
// (a returned argument, a result returned twice, a view of another).
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/CudaExecutor.h"

#include "coda-runtime/coda_runtime.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Target/PTX/PTX.h"
#include "llvm/ADT/ScopeExit.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::coda;

/// The CUDA device coda-run runs on.
static constexpr int kDevice = 0;

/// A failed runtime call as an error: the status's name and the runtime's
/// message.
static llvm::Error check(CodaStatus status) {
  if (status == CodaSuccess)
    return llvm::Error::success();
  return llvm::createStringError("%s: %s", codaStatusName(status),
                                 codaGetLastError());
}

llvm::Expected<std::unique_ptr<CudaFunction>>
CudaFunction::compile(ModuleOp module, StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    return llvm::createStringError("no function @%s to compile",
                                   name.str().c_str());
  std::unique_ptr<CudaFunction> compiled(new CudaFunction());
  compiled->name = name.str();
  if (failed(getFunctionSignature(func, /*computeInF64=*/false,
                                  compiled->arguments, compiled->results)))
    return llvm::createStringError("cannot run @%s on CUDA",
                                   name.str().c_str());
  if (!func.getOps<AttentionOp>().empty())
    return llvm::createStringError(
        "@%s: coda.attention needs a caller-provided kernel; coda-run "
        "--device cuda runs functions without attention",
        name.str().c_str());

  OwningOpRef<ModuleOp> copy = cloneEntry(module, name);
  std::string ptx, plan;
  llvm::raw_string_ostream ptxStream(ptx), planStream(plan);
  if (failed(translateToPTX(*copy, ptxStream, &planStream)))
    return llvm::createStringError("cannot compile @%s to PTX",
                                   name.str().c_str());

  CodaBundle *bundle;
  if (llvm::Error error = check(codaBundleLoadFromMemory(
          ptx.data(), ptx.size(), plan.data(), plan.size(), &bundle)))
    return std::move(error);
  // The session keeps the bundle.
  llvm::scope_exit destroyBundle([&] { codaBundleDestroy(bundle); });
  if (llvm::Error error = check(codaSessionCreate(
          bundle, compiled->name.c_str(), &compiled->session)))
    return std::move(error);
  return compiled;
}

CudaFunction::~CudaFunction() {
  // Teardown is best effort: the messages of these calls are dropped.
  codaSessionDestroy(session);
  for (uint64_t address : allocations)
    (void)codaMemoryFree(address);
  if (retainedContext)
    (void)codaContextRelease(kDevice);
}

llvm::Expected<uint64_t> CudaFunction::allocate(size_t bytes) {
  CUdeviceptr address;
  // A zero-sized buffer still needs an address to bind.
  if (llvm::Error error =
          check(codaMemoryAllocate(std::max<size_t>(bytes, 1), &address)))
    return std::move(error);
  allocations.push_back(address);
  return address;
}

/// The buffer that owns the memory of buffer `name`: the one it is a view
/// of, transitively, else itself.
static std::string getOwner(CodaSession *session, const char *name) {
  std::string owner = name;
  size_t index;
  while (codaSessionFindBuffer(session, owner.c_str(), &index) == CodaSuccess)
    if (const char *viewOf = codaSessionBufferViewOf(session, index))
      owner = viewOf;
    else
      break;
  return owner;
}

llvm::Error CudaFunction::bindArguments(ArrayRef<HostTensor> converted) {
  for (auto [index, input] : llvm::enumerate(converted)) {
    std::string buffer = "arg" + std::to_string(index);
    size_t bytes = input.getNumElements() * getElementBytes(input.getKind());
    llvm::Expected<uint64_t> address = allocate(bytes);
    if (!address)
      return address.takeError();
    if (llvm::Error error = check(
            codaMemoryCopyToDevice(*address, input.data(), bytes, nullptr)))
      return error;
    if (llvm::Error error =
            check(codaSessionBind(session, buffer.c_str(), *address)))
      return error;
    addresses[getOwner(session, buffer.c_str())] = *address;
  }
  return llvm::Error::success();
}

llvm::Error CudaFunction::bindResults() {
  for (size_t result = 0; result < codaSessionResultCount(session); ++result) {
    const char *buffer = codaSessionResultName(session, result);
    std::string owner = getOwner(session, buffer);
    if (addresses.count(owner))
      continue;
    const TensorSignature &signature = results[result];
    size_t bytes = getElementBytes(signature.kind);
    for (int64_t size : signature.shape)
      bytes *= ShapedType::isDynamic(size) ? rows : size;
    llvm::Expected<uint64_t> address = allocate(bytes);
    if (!address)
      return address.takeError();
    if (llvm::Error error = check(codaSessionBind(session, buffer, *address)))
      return error;
    addresses[owner] = *address;
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> CudaFunction::downloadResults() {
  std::vector<HostTensor> outputs;
  for (auto [index, signature] : llvm::enumerate(results)) {
    SmallVector<int64_t> shape(signature.shape);
    for (int64_t &size : shape)
      if (ShapedType::isDynamic(size))
        size = rows;
    HostTensor output(signature.kind, shape);
    std::string owner =
        getOwner(session, codaSessionResultName(session, index));
    size_t bytes = output.getNumElements() * getElementBytes(signature.kind);
    if (llvm::Error error = check(codaMemoryCopyToHost(
            output.data(), addresses.lookup(owner), bytes, nullptr)))
      return std::move(error);
    outputs.push_back(std::move(output));
  }
  if (llvm::Error error = check(codaStreamSynchronize(nullptr)))
    return std::move(error);
  return outputs;
}

llvm::Expected<std::vector<HostTensor>>
CudaFunction::run(ArrayRef<HostTensor> inputs) {
  int64_t inputRows;
  auto converted = convertInputs(name, arguments, inputs, inputRows);
  if (!converted)
    return converted.takeError();
  // A function without a row count of its own runs over its plan's.
  rows = ShapedType::isDynamic(inputRows)
             ? std::max<int64_t>(codaSessionStaticRows(session), 1)
             : inputRows;
  // Bad row counts fail here, before anything is allocated.
  size_t workspace;
  if (llvm::Error error =
          check(codaSessionWorkspaceBytes(session, rows, &workspace)))
    return std::move(error);

  CUcontext context;
  if (llvm::Error error = check(codaContextRetain(kDevice, &context)))
    return std::move(error);
  retainedContext = true;
  if (llvm::Error error = bindArguments(*converted))
    return std::move(error);
  if (llvm::Error error = bindResults())
    return std::move(error);
  if (llvm::Error error = check(codaSessionLaunch(session, rows, nullptr)))
    return std::move(error);
  return downloadResults();
}

llvm::Expected<double> CudaFunction::benchmark(unsigned iterations) {
  if (llvm::Error error = check(codaSessionLaunch(session, rows, nullptr)))
    return std::move(error);
  std::vector<CUevent> events;
  llvm::scope_exit destroyEvents([&] {
    for (CUevent event : events)
      (void)codaEventDestroy(event);
  });
  for (unsigned i = 0; i <= iterations; ++i) {
    CUevent event;
    if (llvm::Error error = check(codaEventCreate(&event)))
      return std::move(error);
    events.push_back(event);
  }
  // Back to back: event i + 1 ends launch i and starts launch i + 1.
  if (llvm::Error error = check(codaEventRecord(events[0], nullptr)))
    return std::move(error);
  for (unsigned i = 0; i < iterations; ++i) {
    if (llvm::Error error = check(codaSessionLaunch(session, rows, nullptr)))
      return std::move(error);
    if (llvm::Error error = check(codaEventRecord(events[i + 1], nullptr)))
      return std::move(error);
  }
  std::vector<double> times;
  for (unsigned i = 0; i < iterations; ++i) {
    float milliseconds;
    if (llvm::Error error =
            check(codaEventElapsedMs(events[i], events[i + 1], &milliseconds)))
      return std::move(error);
    times.push_back(milliseconds);
  }
  std::sort(times.begin(), times.end());
  size_t middle = times.size() / 2;
  return times.size() % 2 ? times[middle]
                          : (times[middle - 1] + times[middle]) / 2;
}
