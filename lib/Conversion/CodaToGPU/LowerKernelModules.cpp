//===- LowerKernelModules.cpp - kernel modules to PTX binaries ------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The host functions stay at the coda level, so each kernel module is
// copied into modules of its own, lowered there, and the binary that
// results put in its place.
//
// One module lowers on one thread, most of it in LLVM (libdevice, O3 and
// the NVPTX backend). So a kernel module's kernels are parted into up to
// four contiguous runs of about equal size, each copy keeping one run; the
// copies lower in parallel, and their PTX is joined in the kernels' order
// into one text: one header, each external declaration once. Each kernel's
// PTX is the one a single module gives but for the names numbered per
// module (its labels, its mbarriers'), which are the kernel's own. A module
// holding anything but kernels and variables in workgroup memory (which
// each CTA has its own of) lowers whole.
//
//===----------------------------------------------------------------------===//

#include "coda/Conversion/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

namespace mlir::coda {
#define GEN_PASS_DEF_CODALOWERKERNELMODULESPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;

/// Lets every floating-point op of the kernels contract with its neighbours
/// (a multiply and an add into one fma), as nvcc's default -fmad=true does:
/// fewer instructions in the epilogues, and each fma rounds once.
static void allowContraction(gpu::GPUModuleOp kernels) {
  kernels.walk([](arith::ArithFastMathInterface op) {
    arith::FastMathFlags flags = arith::FastMathFlags::contract;
    if (arith::FastMathFlagsAttr given = op.getFastMathFlagsAttr())
      flags = flags | given.getValue();
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(op->getContext(), flags));
  });
}

/// Whether `line` of a PTX text lies before its first kernel and belongs to
/// the header (the generator's comments, .version, .target,
/// .address_size).
static bool isHeaderLine(StringRef line) {
  return line.empty() || line.starts_with("//") ||
         line.starts_with(".version") || line.starts_with(".target") ||
         line.starts_with(".address_size");
}

/// The PTX texts of the parts of one kernel module, in order, as one: the
/// first part's header, each external declaration once after it, then
/// every part's kernels. The backend's notes that a global "has been
/// demoted" into its one kernel are left out, as their places depend on
/// the parts.
static std::string joinPTX(ArrayRef<StringRef> parts) {
  std::string header, body;
  llvm::raw_string_ostream headerOS(header), bodyOS(body);
  llvm::SetVector<StringRef> externals;
  for (auto [index, part] : llvm::enumerate(parts)) {
    bool inHeader = true;
    SmallVector<StringRef> lines;
    part.split(lines, '\n');
    // split() leaves one empty piece after a final newline.
    if (!lines.empty() && lines.back().empty())
      lines.pop_back();
    for (StringRef line : lines) {
      if (line.starts_with("// ") && line.ends_with("has been demoted"))
        continue;
      if (inHeader && isHeaderLine(line)) {
        if (index == 0)
          headerOS << line << "\n";
        continue;
      }
      inHeader = false;
      if (line.starts_with(".extern "))
        externals.insert(line);
      else
        bodyOS << line << "\n";
    }
  }
  for (StringRef line : externals)
    headerOS << line << "\n";
  return header + body;
}

/// Whether `op` is a variable in workgroup memory, which each CTA has its
/// own of: a kernel module's parts may each define it.
static bool isWorkgroupVariable(Operation *op) {
  if (auto global = dyn_cast<memref::GlobalOp>(op))
    return gpu::GPUDialect::isWorkgroupMemoryAddressSpace(
        global.getType().getMemorySpace());
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return global.getAddrSpace() ==
           static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
  return false;
}

/// Whether `kernels` holds a symbol other than a kernel or a workgroup
/// variable (a device function, a global in device memory): parts that
/// use it would each define it, where one module defines it once.
static bool hasDeviceSymbols(gpu::GPUModuleOp kernels) {
  return llvm::any_of(kernels.getBody()->getOperations(), [](Operation &op) {
    auto function = dyn_cast<gpu::GPUFuncOp>(op);
    return isa<SymbolOpInterface>(op) && !(function && function.isKernel()) &&
           !isWorkgroupVariable(&op);
  });
}

/// Where `count` contiguous runs of `kernels` of about equal size
/// (operations) start: a run ends at the first kernel that takes the runs
/// so far to their share of the total.
static SmallVector<size_t> partKernels(ArrayRef<gpu::GPUFuncOp> kernels,
                                       unsigned count) {
  SmallVector<size_t> sizes;
  size_t total = 0;
  for (gpu::GPUFuncOp kernel : kernels) {
    size_t size = 0;
    kernel.walk([&](Operation *) { ++size; });
    sizes.push_back(size);
    total += size;
  }
  SmallVector<size_t> starts = {0};
  size_t done = 0;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    done += size;
    if (starts.size() < count && index + 1 < sizes.size() &&
        done * count >= total * starts.size())
      starts.push_back(index + 1);
  }
  return starts;
}

/// Copies of `kernels` into modules of their own at the end of `holder`,
/// one per part of its kernels (at most `count`), each with only that
/// part's kernels. Returns how many.
static size_t splitIntoParts(gpu::GPUModuleOp kernels, ModuleOp holder,
                             unsigned count) {
  auto functions = llvm::to_vector(llvm::make_filter_range(
      kernels.getOps<gpu::GPUFuncOp>(),
      [](gpu::GPUFuncOp function) { return function.isKernel(); }));
  count = std::max<unsigned>(1, std::min<size_t>(count, functions.size()));
  if (hasDeviceSymbols(kernels))
    count = 1;
  SmallVector<size_t> starts = partKernels(functions, count);
  starts.push_back(functions.size());
  OpBuilder builder = OpBuilder::atBlockEnd(holder.getBody());
  for (size_t part = 0; part + 1 < starts.size(); ++part) {
    llvm::StringSet<> kept;
    for (size_t i = starts[part]; i < starts[part + 1]; ++i)
      kept.insert(functions[i].getName());
    auto partModule = ModuleOp::create(builder, kernels.getLoc());
    partModule->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                        builder.getUnitAttr());
    auto copy = cast<gpu::GPUModuleOp>(kernels->clone());
    allowContraction(copy);
    partModule.getBody()->push_back(copy);
    // The other parts' kernels. What else the module holds is workgroup
    // variables (hasDeviceSymbols): LLVM drops those no kept kernel uses,
    // and joinPTX keeps one declaration of an external one.
    for (gpu::GPUFuncOp function :
         llvm::to_vector(copy.getOps<gpu::GPUFuncOp>()))
      if (function.isKernel() && !kept.contains(function.getName()))
        function->erase();
  }
  return starts.size() - 1;
}

/// The parts a kernel module lowers in, at most. A number of its own, not
/// the machine's threads, so that the PTX (its per-module names) is the same
/// on every machine; on two cores the canonical block compiles 1.7x and its
/// training pair 2x as fast as in one module (bench/NOTES.md §65), and four
/// cores would run the parts at once.
static constexpr unsigned kParts = 4;

/// The property in which the NVVM serializer reports its LLVM IR to PTX
/// time.
static constexpr StringLiteral kTimeProperty = "LLVMIRToISATimeInMs";

/// `properties` with the serializer's time, if it reports one, replaced by
/// `timeInMs`, the parts' total.
static DictionaryAttr sumTimes(DictionaryAttr properties, int64_t timeInMs) {
  if (!properties || !properties.get(kTimeProperty))
    return properties;
  NamedAttrList list(properties);
  list.set(kTimeProperty,
           IntegerAttr::get(IntegerType::get(properties.getContext(), 64),
                            timeInMs));
  return list.getDictionary(properties.getContext());
}

namespace {
struct CodaLowerKernelModulesPass
    : public coda::impl::CodaLowerKernelModulesPassBase<
          CodaLowerKernelModulesPass> {
  using Base::Base;

  /// On each part module: the device half of MLIR's GPU-to-NVVM pipeline,
  /// in its order, with only the conversions the generated kernels need
  /// (they hold no vector, affine or index ops and no host code): the same
  /// PTX in about two thirds of the time; then the kernels to PTX. The
  /// kernel modules carry their NVVM target. The part modules run in
  /// parallel.
  static void buildLowering(OpPassManager &pm) {
    OpPassManager &part = pm.nest<ModuleOp>();
    OpPassManager &kernels = part.nest<gpu::GPUModuleOp>();
    kernels.addPass(createConvertNVGPUToNVVMPass());
    kernels.addPass(createSCFToControlFlowPass());
    kernels.addPass(createConvertNVVMToLLVMPass());
    kernels.addPass(memref::createExpandStridedMetadataPass());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createCSEPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    part.addPass(createGpuModuleToBinaryPass(binary));
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildLowering(pm);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto kernelModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    // The NVVM serializer links libdevice from the toolkit.
    if (!std::getenv("CUDA_ROOT") &&
        llvm::sys::fs::is_directory("/usr/local/cuda"))
      ::setenv("CUDA_ROOT", "/usr/local/cuda", /*overwrite=*/0);

    // Each kernel module in parts, a module each.
    MLIRContext *context = &getContext();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto holder = ModuleOp::create(builder, module.getLoc());
    SmallVector<size_t> partCounts;
    for (gpu::GPUModuleOp kernels : kernelModules)
      partCounts.push_back(splitIntoParts(kernels, holder, kParts));
    OpPassManager pm(ModuleOp::getOperationName());
    buildLowering(pm);
    if (failed(runPipeline(pm, holder))) {
      holder->erase();
      return signalPassFailure();
    }

    // The parts' PTX joined, in place of each kernel module.
    auto parts = llvm::to_vector(holder.getOps<ModuleOp>());
    size_t next = 0;
    for (auto [kernels, count] : llvm::zip_equal(kernelModules, partCounts)) {
      SmallVector<StringRef> texts;
      gpu::ObjectAttr first;
      int64_t timeInMs = 0;
      for (ModuleOp part : ArrayRef(parts).slice(next, count)) {
        auto object = cast<gpu::ObjectAttr>(
            (*part.getOps<gpu::BinaryOp>().begin()).getObjects()[0]);
        if (!first)
          first = object;
        texts.push_back(object.getObject().getValue());
        if (DictionaryAttr properties = object.getProperties())
          if (auto time = properties.getAs<IntegerAttr>(kTimeProperty))
            timeInMs += time.getInt();
      }
      next += count;
      OpBuilder before(kernels);
      gpu::BinaryOp::create(before, kernels.getLoc(), kernels.getSymName(),
                            Attribute(),
                            ArrayRef<Attribute>{gpu::ObjectAttr::get(
                                context, first.getTarget(), first.getFormat(),
                                StringAttr::get(context, joinPTX(texts)),
                                sumTimes(first.getProperties(), timeInMs),
                                // NVVM's serializer gives PTX no kernel table.
                                gpu::KernelTableAttr())});
      kernels->erase();
    }
    holder->erase();
  }
};
} // namespace
