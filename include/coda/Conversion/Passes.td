//===- Passes.td - coda conversions ------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_CONVERSION_PASSES_TD
#define CODA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCodaToLinalgPass
    : Pass<"convert-coda-to-linalg", "::mlir::ModuleOp"> {
  let summary = "lower coda ops, graph and epilogue level, to linalg on tensors";
  let description = [{
    The CPU reference path. Every coda op becomes linalg, tensor, arith and
    math ops on tensors with the op's semantics: values are widened to the
    compute type, computed, and rounded once to the result's element type.
    A `coda.gemm` becomes its product in the compute type followed by its
    epilogue, inlined; partial reductions use `tile_n` (128 when unplanned).
    `coda.attention` is lowered naively (scores, mask, softmax, weighted sum).

    With `compute-in-f64`, every floating-point tensor, function arguments
    and results included, becomes f64 and nothing is rounded: the f64
    reference that fused programs are checked against.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let options = [
    Option<"computeInF64", "compute-in-f64", "bool", /*default=*/"false",
           "Compute and store every floating-point tensor in f64">,
  ];
}

def ConvertCodaToGPUPass : Pass<"convert-coda-to-gpu", "::mlir::ModuleOp"> {
  let summary = "generate a Hopper kernel for each coda.gemm";
  let description = [{
    Emits, for every `coda.gemm` of each function, a `gpu.func` kernel for
    `sm_90a` named `<function>_gemm<i>`, and for every
    `coda.reduce_partials` one named `<function>_reduce<i>`, into one
    `gpu.module @coda_kernels`, and records each kernel on its op as
    `coda.kernel`.

    A GEMM kernel computes a 128x128 output tile per CTA with one warpgroup:
    TMA loads of 128x64 A and B boxes into 128-byte-swizzled shared memory
    through a ring of `stages` slots guarded by mbarriers,
    `wgmma.mma_async` m64n128k16 with the generator's own shared-memory
    descriptors, f32 accumulators in registers, and the epilogue region
    evaluated on register pairs (adjacent columns) before predicated 4-byte
    stores; partial sums and sums of squares are combined across the four
    lanes that hold a row and stored once per row and N-tile. Arguments, in
    order: the A and B tensor maps (device pointers to 128-byte CUtensorMap
    objects; A boxes 64 (k) x 128 (m), B boxes 64 (k) x 128 (n)), the row
    count M as i32, one pointer per epilogue input, one pointer per result.
    Grid: (ceil(M / 128), ceil(N / 128)), block: 128 threads, dynamic shared
    memory: `stages` x 32 KiB + 1 KiB.

    A reduction kernel gives one thread per row: it sums the row's
    ceil(N / 128) partials into the sum or rstd. Arguments: M as i32, the
    partials, the result. Grid: ceil(M / 128), block: 128 threads.

    The generator takes GEMMs with `a_layout = "mk"`, `b_layout = "nk"`, one
    bf16 or f16 weight, epilogues of elementwise ops on tiles, per-row
    columns and per-column vectors, partial sums and sums of squares, and
    `[M, N]` results; reductions of kind "sum" and "rstd" over such
    partials. Any other op is reported with the reason.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"4",
           "Shared-memory ring slots of the mainloop (2 to 6)">,
  ];
}

#endif // CODA_CONVERSION_PASSES_TD
