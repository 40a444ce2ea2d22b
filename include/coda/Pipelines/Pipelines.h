//===- Pipelines.h - coda's named pass pipelines ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_PIPELINES_PIPELINES_H
#define CODA_PIPELINES_PIPELINES_H

#include "coda/Conversion/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::coda {

/// Options of `coda-fuse-pipeline`; each mirrors the option of the pass it
/// is passed to.
struct CodaFusePipelineOptions
    : public PassPipelineOptions<CodaFusePipelineOptions> {
  Option<unsigned> maxWeights{
      *this, "max-weights",
      llvm::cl::desc("Largest number of linears merged into one GEMM (0: no "
                     "limit)"),
      llvm::cl::init(0)};
  Option<bool> foldGammaIntoWeights{
      *this, "fold-gamma-into-weights",
      llvm::cl::desc("Fold norm gammas into the consuming weights (inference)"),
      llvm::cl::init(false)};
  Option<unsigned> maxEpilogueOps{
      *this, "max-epilogue-ops",
      llvm::cl::desc("Largest number of ops in one epilogue"),
      llvm::cl::init(64)};
};

/// Builds the graph-to-epilogue-program pipeline on a `func.func` pass
/// manager: merge parallel linears, reparameterize norms, form epilogues.
void buildCodaFusePipeline(OpPassManager &pm,
                           const CodaFusePipelineOptions &options);

/// Builds `coda-gpu-fuse-pipeline` on a func.func pass manager: the fuse
/// pipeline, then the rewrites that shape what no GEMM takes into the
/// kernels of the GPU path (coda-split-norm-gradients, coda-form-maps).
void buildCodaGPUFusePipeline(OpPassManager &pm,
                              const CodaFusePipelineOptions &options);

/// Options of `coda-cpu-pipeline`.
struct CodaCpuPipelineOptions
    : public PassPipelineOptions<CodaCpuPipelineOptions> {
  Option<bool> computeInF64{
      *this, "compute-in-f64",
      llvm::cl::desc("Compute and store every floating-point tensor in f64 "
                     "(the reference)"),
      llvm::cl::init(false)};
};

/// Builds the CPU reference pipeline on a `builtin.module` pass manager:
/// coda functions at the graph or epilogue level become LLVM-dialect
/// functions for the ExecutionEngine. Tensors become memrefs with the
/// identity layout; a function returns its results as memref descriptors
/// whose buffers it allocated with `malloc`. Functions that carry
/// `llvm.emit_c_interface` get a `_mlir_ciface_` wrapper. Shapes the types
/// leave open are checked at run time: a failed check calls `puts` with its
/// message and location, then `abort`.
void buildCodaCpuPipeline(OpPassManager &pm,
                          const CodaCpuPipelineOptions &options);

/// Builds `coda-lower-to-nvvm-pipeline` on a `builtin.module` pass manager:
/// the module's `gpu.module`s (the kernels of convert-coda-to-gpu) go
/// through NVVM to PTX for sm_90a (O3, PTX ISA 8.0), each becoming a
/// `gpu.binary` that holds the PTX text; host functions are left as they
/// are (coda-lower-kernel-modules). libdevice comes from CUDA_ROOT.
void buildCodaLowerToNVVMPipeline(OpPassManager &pm);

/// Options of `coda-to-ptx-pipeline`: those of coda-plan-kernels.
struct CodaToPTXPipelineOptions
    : public PassPipelineOptions<CodaToPTXPipelineOptions> {
  Option<unsigned> stages{
      *this, "stages",
      llvm::cl::desc("Shared-memory ring slots of the GEMM mainloop (0: as "
                     "many as fit)"),
      llvm::cl::init(0)};
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("How the consumer warpgroups share a CTA's tiles: "
                     "\"auto\" (chosen per GEMM), \"cooperative\", "
                     "\"pingpong\" or \"epilogue-warpgroup\""),
      llvm::cl::init("auto")};
  Option<unsigned> groupRows{
      *this, "group-rows",
      llvm::cl::desc("Row tiles per group of a GEMM's tile order (at least "
                     "1)"),
      llvm::cl::init(kDefaultGroupRows)};
};

/// Builds `coda-to-ptx-pipeline` on a `builtin.module` pass manager:
/// coda-fuse-pipeline on every function (an epilogue-level function is left
/// as it is), coda-plan-kernels, convert-coda-to-gpu, then
/// coda-lower-to-nvvm-pipeline. The
/// host functions stay at the coda level, each GEMM and reduction naming
/// its kernel (`coda.kernel`) and launch (`coda.launch`).
void buildCodaToPTXPipeline(OpPassManager &pm,
                            const CodaToPTXPipelineOptions &options);

/// Registers every coda pipeline with the global pass registry.
void registerCodaPipelines();

} // namespace mlir::coda

#endif // CODA_PIPELINES_PIPELINES_H
