//===- Pipelines.cpp - coda's named pass pipelines ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Pipelines/Pipelines.h"

#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
  pm.addPass(createCodaFormEpiloguesPass({options.maxEpilogueOps}));
  // Shares equal inputs and statistics the rewrites created per consumer.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::coda::registerCodaPipelines() {
  PassPipelineRegistration<CodaFusePipelineOptions>(
      "coda-fuse-pipeline",
      "rewrite graph-level functions into GEMM-epilogue programs",
      buildCodaFusePipeline);
}
