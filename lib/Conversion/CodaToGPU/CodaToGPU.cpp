//===- CodaToGPU.cpp - kernels for the GEMMs of each function -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CONVERTCODATOGPUPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// The `gpu.module` that holds every generated kernel.
static constexpr llvm::StringLiteral kKernelModuleName = "coda_kernels";

namespace {
struct ConvertCodaToGPUPass
    : public coda::impl::ConvertCodaToGPUPassBase<ConvertCodaToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (stages < 2 || stages > 6) {
      module.emitError("stages = ")
          << stages.getValue()
          << " is outside [2, 6]: the ring of 32 KiB slots must "
             "fit the 227 KiB of shared memory";
      return signalPassFailure();
    }

    SmallVector<std::pair<func::FuncOp, SmallVector<GemmOp>>> work;
    bool supported = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<GemmOp> gemms;
      func.walk([&](GemmOp gemm) {
        supported &= succeeded(checkGemmKernelSupport(gemm));
        gemms.push_back(gemm);
      });
      if (!gemms.empty())
        work.push_back({func, std::move(gemms)});
    }
    if (!supported)
      return signalPassFailure();

    OpBuilder builder(context);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    auto target = NVVM::NVVMTargetAttr::get(
        context, /*optLevel=*/3, "nvptx64-nvidia-cuda", "sm_90a", "+ptx80");
    if (work.empty())
      return;
    // One kernel module for the whole input, so one PTX file holds every
    // kernel.
    builder.setInsertionPointToEnd(module.getBody());
    auto kernels =
        gpu::GPUModuleOp::create(builder, module.getLoc(), kKernelModuleName,
                                 ArrayRef<Attribute>{target});
    builder.setInsertionPointToStart(&kernels.getBodyRegion().front());
    // The dynamic shared memory: an external array ptxas aligns to 1 KiB.
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    memref::GlobalOp::create(
        builder, module.getLoc(), builder.getStringAttr("coda_smem"),
        builder.getStringAttr("public"),
        TypeAttr::get(MemRefType::get({0}, builder.getI8Type(),
                                      MemRefLayoutAttrInterface(), workgroup)),
        Attribute(), UnitAttr(), builder.getI64IntegerAttr(1024));
    for (auto &[func, gemms] : work)
      for (auto [index, gemm] : llvm::enumerate(gemms)) {
        std::string kernelName =
            (func.getSymName() + "_gemm" + std::to_string(index)).str();
        emitGemmKernel(builder, gemm, kernelName, stages);
        gemm->setAttr(
            "coda.kernel",
            SymbolRefAttr::get(builder.getStringAttr(kKernelModuleName),
                               {FlatSymbolRefAttr::get(context, kernelName)}));
      }
  }
};
} // namespace
