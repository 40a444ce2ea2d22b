//===- CpuExecutor.cpp - run coda functions on the CPU --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiled function has the C interface of MLIR's memref lowering:
// `_mlir_ciface_NAME(results *, descriptor *arg0, ...)`, each descriptor
// `{allocated, aligned, offset, sizes[rank], strides[rank]}`, the results a
// sequence of descriptors whose buffers the function allocated with malloc.
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/CpuExecutor.h"

#include "GuardedCall.h"

#include "llvm/ADT/SetVector.h"

#include "coda/Pipelines/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::coda;

CpuFunction::~CpuFunction() = default;

FailureOr<std::unique_ptr<CpuFunction>>
CpuFunction::compile(ModuleOp module, StringRef name, bool computeInF64) {
  MLIRContext *context = module.getContext();
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    return module.emitError("no function @") << name << " to compile";

  std::unique_ptr<CpuFunction> compiled(new CpuFunction());
  compiled->name = name.str();
  if (failed(getFunctionSignature(func, computeInF64, compiled->arguments,
                                  compiled->results)))
    return failure();

  OwningOpRef<ModuleOp> lowered = cloneEntry(module, name);
  auto entry = lowered->lookupSymbol<func::FuncOp>(name);
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(context));
  // CODA's notes on the arguments and results (a backward's
  // coda.gradient_of) mean nothing to LLVM, which would warn about them.
  entry.removeArgAttrsAttr();
  entry.removeResAttrsAttr();
  PassManager pm(context);
  CodaCpuPipelineOptions options;
  options.computeInF64 = computeInF64;
  buildCodaCpuPipeline(pm, options);
  if (failed(pm.run(*lowered)))
    return failure();

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  // The options keep a reference to the transformer.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  auto engine = ExecutionEngine::create(*lowered, engineOptions);
  if (!engine)
    return module.emitError("cannot compile @")
           << name << " for the CPU: " << llvm::toString(engine.takeError());
  // A failed allocation or runtime check ends the call with an error, not
  // the process.
  (*engine)->registerSymbols(getGuardedCallSymbols);
  compiled->engine = std::move(*engine);
  return compiled;
}

/// What the memref lowering stores as the allocated pointer of a buffer it
/// did not allocate (a constant global): never to be freed.
static void *const kGlobalBufferMarker = reinterpret_cast<void *>(0xdeadbeef);

/// Returns the words of a memref descriptor of `rank` dimensions.
static size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }

/// Rewrites a runtime check's message, `ERROR: Runtime op verification
/// failed\n^ WHAT\nLocation: loc("FILE":LINE:COL)`, as `FILE:LINE:COL: WHAT`;
/// another message is returned as it is.
static std::string describeCheck(StringRef message) {
  StringRef what, where;
  SmallVector<StringRef> lines;
  message.split(lines, '\n');
  for (StringRef line : lines) {
    if (line.consume_front("^ "))
      what = line;
    else if (line.consume_front("Location: loc(") && line.consume_back(")"))
      where = line;
  }
  if (what.empty() || where.empty())
    return message.trim().str();
  std::string location = where.str();
  llvm::erase(location, '"');
  return location + ": " + what.str();
}

/// The error of function `name`'s call that `failure` ended, at `rows`
/// rows (dynamic: the function has none).
static llvm::Error describeFailure(StringRef name, const CallFailure &failure,
                                   int64_t rows) {
  std::string at = ShapedType::isDynamic(rows)
                       ? std::string()
                       : llvm::formatv(" at {0} rows", rows).str();
  if (failure.kind == CallFailure::Kind::Check)
    return llvm::createStringError(
        llvm::formatv("@{0}{1} failed a runtime check: {2}", name, at,
                      describeCheck(failure.message)));
  return llvm::createStringError(llvm::formatv(
      "@{0}{1} ran out of host memory: allocating {2:e2} bytes failed while "
      "its buffers held {3:e2} bytes",
      name, at, double(failure.requested), double(failure.held)));
}

llvm::Expected<std::vector<HostTensor>>
CpuFunction::run(ArrayRef<HostTensor> inputs) const {
  int64_t rows;
  auto converted = convertInputs(name, arguments, inputs, rows);
  if (!converted)
    return converted.takeError();

  std::vector<std::vector<int64_t>> descriptors;
  llvm::DenseSet<void *> inputBuffers;
  for (HostTensor &tensor : *converted) {
    auto shape = tensor.getShape();
    std::vector<int64_t> descriptor(descriptorWords(shape.size()), 0);
    auto *pointer = tensor.data();
    inputBuffers.insert(pointer);
    std::memcpy(&descriptor[0], &pointer, sizeof(pointer));
    std::memcpy(&descriptor[1], &pointer, sizeof(pointer));
    int64_t stride = 1;
    for (size_t dim = shape.size(); dim-- > 0;) {
      descriptor[3 + dim] = shape[dim];
      descriptor[3 + shape.size() + dim] = stride;
      stride *= shape[dim];
    }
    descriptors.push_back(std::move(descriptor));
  }

  size_t resultWords = 0;
  for (const TensorSignature &signature : results)
    resultWords += descriptorWords(signature.shape.size());
  std::vector<int64_t> resultDescriptors(std::max<size_t>(resultWords, 1), 0);

  void *resultPointer = resultDescriptors.data();
  std::vector<void *> descriptorPointers;
  for (auto &descriptor : descriptors)
    descriptorPointers.push_back(descriptor.data());
  SmallVector<void *> packed;
  if (!results.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : descriptorPointers)
    packed.push_back(&pointer);
  auto function = engine->lookupPacked("_mlir_ciface_" + name);
  if (!function)
    return function.takeError();
  if (std::optional<CallFailure> failure =
          callGuarded(*function, packed.data()))
    return describeFailure(name, *failure, rows);

  // Copy each result out, honouring its strides, then free each buffer
  // once: results may share one (a value returned twice).
  std::vector<HostTensor> outputs;
  llvm::SetVector<void *> owned;
  size_t word = 0;
  for (const TensorSignature &signature : results) {
    size_t rank = signature.shape.size();
    const int64_t *descriptor = &resultDescriptors[word];
    word += descriptorWords(rank);
    void *allocated, *aligned;
    std::memcpy(&allocated, &descriptor[0], sizeof(allocated));
    std::memcpy(&aligned, &descriptor[1], sizeof(aligned));
    SmallVector<int64_t> shape(descriptor + 3, descriptor + 3 + rank);
    ArrayRef<int64_t> strides(descriptor + 3 + rank, rank);
    HostTensor output(signature.kind, shape);
    size_t bytes = getElementBytes(signature.kind);
    const auto *base =
        static_cast<const uint8_t *>(aligned) + descriptor[2] * bytes;
    for (int64_t index = 0, e = output.getNumElements(); index < e; ++index) {
      int64_t offset = 0, rest = index;
      for (size_t dim = rank; dim-- > 0;) {
        offset += (rest % shape[dim]) * strides[dim];
        rest /= shape[dim];
      }
      std::memcpy(output.data() + index * bytes, base + offset * bytes, bytes);
    }
    outputs.push_back(std::move(output));
    if (allocated != kGlobalBufferMarker && !inputBuffers.contains(allocated))
      owned.insert(allocated);
  }
  for (void *allocated : owned)
    std::free(allocated);
  return outputs;
}
