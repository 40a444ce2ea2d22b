//===- LowerKernelModules.cpp - kernel modules to PTX binaries ------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The host functions stay at the coda level, so the kernel modules are
// cloned into a nested module of their own, lowered there, and their
// binaries moved out in place of the originals.
//
//===----------------------------------------------------------------------===//

#include "coda/Conversion/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
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

namespace {
struct CodaLowerKernelModulesPass
    : public coda::impl::CodaLowerKernelModulesPassBase<
          CodaLowerKernelModulesPass> {
  using Base::Base;

  /// The device half of MLIR's GPU-to-NVVM pipeline, in its order, with
  /// only the conversions the generated kernels need (they hold no vector,
  /// affine or index ops and no host code): the same PTX in about two
  /// thirds of the time. The kernel modules carry their NVVM target.
  static void buildLowering(OpPassManager &pm) {
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
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
    pm.addPass(createGpuModuleToBinaryPass(binary));
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

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto nested = ModuleOp::create(builder, module.getLoc());
    nested->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    for (gpu::GPUModuleOp kernels : kernelModules) {
      auto clone = cast<gpu::GPUModuleOp>(kernels->clone());
      allowContraction(clone);
      nested.getBody()->push_back(clone);
    }
    OpPassManager pm(ModuleOp::getOperationName());
    buildLowering(pm);
    if (failed(runPipeline(pm, nested))) {
      nested->erase();
      return signalPassFailure();
    }
    for (gpu::GPUModuleOp kernels : kernelModules)
      kernels->erase();
    for (auto binary :
         llvm::make_early_inc_range(nested.getOps<gpu::BinaryOp>()))
      binary->moveBefore(nested);
    nested->erase();
  }
};
} // namespace
