//===- PTX.cpp - coda functions to PTX for sm_90a -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Target/PTX/PTX.h"

#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/InitAll.h"
#include "coda/Pipelines/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::coda;

/// Points CUDA_ROOT at /usr/local/cuda when it is unset and the toolkit is
/// there: the NVVM serializer links libdevice from it.
static void defaultCudaRoot() {
  if (!std::getenv("CUDA_ROOT") && llvm::sys::fs::is_directory("/usr/local/cuda"))
    ::setenv("CUDA_ROOT", "/usr/local/cuda", /*overwrite=*/0);
}

LogicalResult mlir::coda::translateToPTX(ModuleOp module, raw_ostream &os) {
  MLIRContext *context = module.getContext();
  defaultCudaRoot();

  // Kernels for the GEMMs of every function, fused first if the input is at
  // the graph level (the pipeline leaves an epilogue-level input as it is).
  PassManager generate(context);
  buildCodaFusePipeline(generate.nest<func::FuncOp>(),
                        CodaFusePipelineOptions());
  generate.addPass(createConvertCodaToGPUPass());
  if (failed(generate.run(module)))
    return failure();

  // Only the kernel modules go down to NVVM; the host functions stay coda.
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(module.getLoc());
  (*kernels)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(context));
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    kernels->push_back(gpuModule->clone());
  if (kernels->getBody()->empty())
    return module.emitError("no coda.gemm to generate a kernel for");

  PassManager lower(context);
  gpu::GPUToNVVMPipelineOptions options;
  options.cubinChip = "sm_90a";
  options.cubinFeatures = "+ptx80";
  options.cubinFormat = "isa";
  options.optLevel = 3;
  gpu::buildLowerToNVVMPassPipeline(lower, options);
  if (failed(lower.run(*kernels)))
    return failure();

  for (auto binary : kernels->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      os << "// kernels of @" << binary.getName() << "\n"
         << cast<gpu::ObjectAttr>(object).getObject().getValue();
  return success();
}

void mlir::coda::registerPTXTranslation() {
  TranslateFromMLIRRegistration registration(
      "coda-to-ptx",
      "compile the GEMMs of every function to PTX for sm_90a",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module at the top level");
        return translateToPTX(module, os);
      },
      [](DialectRegistry &registry) {
        mlir::registerAllDialects(registry);
        mlir::registerAllExtensions(registry);
        mlir::registerAllToLLVMIRTranslations(registry);
        coda::registerAllDialects(registry);
      });
}
