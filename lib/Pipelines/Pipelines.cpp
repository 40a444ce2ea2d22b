//===- Pipelines.cpp - coda's named pass pipelines ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Pipelines/Pipelines.h"

#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::coda::buildCodaFusePipeline(OpPassManager &pm,
                                       const CodaFusePipelineOptions &options) {
  // Merging first lets gate/up and q/k/v share one GEMM before the norms
  // that feed them are rewritten, so each norm scales one GEMM, not three.
  pm.addPass(createCodaMergeParallelLinearsPass({options.maxWeights}));
  // Folds the slices and concats the merge leaves around.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCodaReparameterizeNormsPass({options.foldGammaIntoWeights}));
  // A norm's scale that a training pair's forward saves is the one the
  // reparameterization computes: one statistic, before epilogues take it.
  pm.addPass(createCSEPass());
  pm.addPass(createCodaFormEpiloguesPass({options.maxEpilogueOps}));
  // An epilogue that adds another GEMM's product takes its mainloop over.
  pm.addPass(createCodaSumProductsPass());
  // Shares equal inputs and statistics the rewrites created per consumer.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::coda::buildCodaGPUFusePipeline(
    OpPassManager &pm, const CodaFusePipelineOptions &options) {
  buildCodaFusePipeline(pm, options);
  pm.addPass(createCodaRecomputeInEpiloguesPass({options.maxEpilogueOps}));
  pm.addPass(createCodaSplitNormGradientsPass());
  pm.addPass(createCodaFormMapsPass());
}

void mlir::coda::buildCodaCpuPipeline(OpPassManager &pm,
                                      const CodaCpuPipelineOptions &options) {
  // Epilogue programs first become graph-level ops, so one lowering serves
  // both levels.
  pm.addNestedPass<func::FuncOp>(createCodaInlineEpiloguesPass());
  pm.addPass(createConvertCodaToLinalgPass({options.computeInF64}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Checks at run time of what the types leave open, such as a dynamic row
  // count that meets a static one (each op's operands against its loop
  // bounds). A failed check prints its message and location (puts) and
  // calls abort.
  std::unique_ptr<Pass> checks = createGenerateRuntimeVerificationPass();
  (void)checks->initializeOptions("verbose-level=0",
                                  [](const Twine &) { return failure(); });
  pm.addPass(std::move(checks));

  // Tensors to buffers; function boundaries take identity-layout memrefs so
  // the runner can pass plain row-major arrays.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  // The clones deallocation leaves (a function returning an argument, say).
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Loops, then LLVM. Strided copies become loops too, so the JIT-compiled
  // code calls only the C library and libm.
  pm.addNestedPass<func::FuncOp>(createCodaExpandStridedCopiesPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createSCFToControlFlowPass());
  // bf16 conversions as integer arithmetic: the host needs no bf16 support.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // erf and tanh come from libm; exp, log and sqrt become LLVM intrinsics.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::coda::buildCodaLowerToNVVMPipeline(OpPassManager &pm) {
  pm.addPass(createCodaLowerKernelModulesPass());
}

void mlir::coda::buildCodaToPTXPipeline(
    OpPassManager &pm, const CodaToPTXPipelineOptions &options) {
  buildCodaGPUFusePipeline(pm.nest<func::FuncOp>(), CodaFusePipelineOptions());
  pm.addPass(createCodaPlanKernelsPass(
      {options.stages, options.schedule.getValue(), options.groupRows}));
  pm.addPass(createConvertCodaToGPUPass());
  buildCodaLowerToNVVMPipeline(pm);
}

void mlir::coda::registerCodaPipelines() {
  PassPipelineRegistration<CodaFusePipelineOptions>(
      "coda-fuse-pipeline",
      "rewrite graph-level functions into GEMM-epilogue programs",
      buildCodaFusePipeline);
  PassPipelineRegistration<CodaFusePipelineOptions>(
      "coda-gpu-fuse-pipeline",
      "the fuse pipeline, then the rewrites of the GPU path for what no GEMM "
      "takes (norm gradients as row kernels, elementwise trees as maps)",
      buildCodaGPUFusePipeline);
  PassPipelineRegistration<CodaCpuPipelineOptions>(
      "coda-cpu-pipeline",
      "lower coda functions to the LLVM dialect for the CPU reference path",
      buildCodaCpuPipeline);
  PassPipelineRegistration<>(
      "coda-lower-to-nvvm-pipeline",
      "lower the generated kernel modules through NVVM to PTX for sm_90a",
      buildCodaLowerToNVVMPipeline);
  PassPipelineRegistration<CodaToPTXPipelineOptions>(
      "coda-to-ptx-pipeline",
      "fuse, generate the Hopper kernels and lower them to PTX for sm_90a",
      buildCodaToPTXPipeline);
}
