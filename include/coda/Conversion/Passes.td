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

def CodaExpandStridedCopiesPass
    : Pass<"coda-expand-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "turn memref copies with strided sides into linalg.copy";
  let description = [{
    The CPU reference path, after bufferization. A `memref.copy` whose
    source or target is not contiguous (the piece of a `coda.concat` written
    into its columns of the result, say) lowers to LLVM as a call to
    `memrefCopy`, a function of MLIR's C runner utilities. This pass makes
    such copies `linalg.copy` instead, which `convert-linalg-to-loops` turns
    into loops, so the JIT-compiled reference calls nothing beyond the C
    library and libm. Contiguous copies are left alone: they lower to
    `memcpy`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ConvertCodaToGPUPass : Pass<"convert-coda-to-gpu", "::mlir::ModuleOp"> {
  let summary = "generate a Hopper kernel for each coda.gemm";
  let description = [{
    Emits, for every `coda.gemm` of each function, a `gpu.func` kernel for
    `sm_90a` named `<function>_gemm<i>` (shaped by the op's `coda.plan`
    from coda-plan-kernels when it has one, by this pass's options
    otherwise), and for every
    `coda.reduce_partials` one named `<function>_reduce<i>` (and for the
    other kernel ops below, theirs), into one
    `gpu.module @coda_kernels`, and records each kernel on its op as
    `coda.kernel`.

    A GEMM kernel is a CTA of three warpgroups: a producer that gives up
    registers (setmaxnreg 24) and streams TMA boxes into a ring of `stages`
    128-byte-swizzled shared-memory slots guarded by "full" and "empty"
    mbarriers (after a tile's k-tiles, also the 16-bit tiles its epilogue
    reads at its own columns), and two consumers (setmaxnreg 240) that
    issue `wgmma.mma_async` m64n128k16 from the generator's own
    shared-memory descriptors, keep f32 accumulators in registers, release
    each slot once its wgmma group retired, and evaluate the epilogue
    region on their registers (the per-row `[M, 1]` inputs it reads are
    loaded before the tile's mainloop). 16-bit tile results leave through a staging
    buffer, or staged over the ring steps of the inputs they were computed
    from, by TMA stores; the others by predicated 4-byte stores. A tile has 128 output columns
    and 256 rows; when the epilogue reads the accumulator at two column
    shifts (SwiGLU's gate and up, as two B boxes per stage), 128 rows.
    Slices shift the columns, concats split the output into column ranges
    with an epilogue each, RoPE reads its partner in the same thread, and
    partial sums, sums of squares and centered sums of squares (around the
    tile's own mean, from a second pass over the registers) are combined
    across the four lanes that hold a row and stored once per row and
    N-tile. CTAs are ordered so
    that groups of `group_rows` row tiles (8 unless the plan or the
    `group-rows` option says otherwise) sweep the N tiles together (L2
    reuse).
    Arguments, in order: each product's A tensor map, one per weight
    (device pointers to 128-byte CUtensorMap objects; boxes 64 (k) x rows),
    each product's A again in boxes of 64 rows where a tile has more (the
    last row tile loads A only for its m64 slabs that hold rows), the row
    count M as i32, one pointer per epilogue input, one pointer per result. Each op
    gets `coda.launch`: threads, rows per block (grid.x = ceil(M / rows)),
    grid.y, dynamic shared memory, and the tensor maps' box rows.

    A reduction kernel gives one warp per row, its lanes reading
    consecutive partials: it sums the row's ceil(N / 128) partials into the
    sum or rstd, takes their maximum or log-sum-exp, or combines sums and
    centered sums of squares into the mean and rstd (kind "mean_rstd"); a
    lane loads at most 32 partials before it adds them.
    Arguments: M as i32, the partials, the results. Grid: ceil(M / 8),
    block: 256 threads.

    An elementwise map left outside every epilogue (an op with a scalar
    form on `[M, N]`, `[N]` and `[M, 1]` operands: a residual sum of the
    backward, a recomputed SwiGLU) gets a kernel `<function>_map<i>`: one
    CTA per row, 128 threads striding over the columns (unrolled, all loads
    before the stores, where every thread takes the same number of steps
    and they evaluate at most 128 values), f32 math and one rounding.
    Arguments: M as i32, the operands, the result. Grid: M, block: 128
    threads.

    A `coda.norm_statistics` (a norm no GEMM produces) becomes
    `<function>_norm<i>`: one warp per row reads the row in column pairs and
    writes h = x · gamma (centered for "layer_norm", from a second pass),
    rstd and the mean. Arguments: M as i32, x, gamma, the results. Grid:
    ceil(M / 4), block: 128 threads. Any other coda op left outside an
    epilogue (except `coda.attention`, which the caller runs) is reported.

    The generator takes GEMMs with `a_layout = "mk"`, `b_layout = "nk"`,
    bf16 or f16 weights, and epilogues of elementwise ops, slices, concats
    whose pieces meet on 128-column boundaries, RoPE with whole heads in a
    tile, per-row columns, per-column vectors and tiles, partial sums, sums
    of squares and centered sums of squares, and `[M, W]` results of one
    width; reductions of kind "sum", "rstd" and "mean_rstd" over such
    partials. Anything else is reported on the
    op at fault with the reason.
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
    Option<"stages", "stages", "unsigned", /*default=*/"0",
           "Shared-memory ring slots of the mainloop: at least 2, or 0 for "
           "as many as fit in the 227 KiB of a CTA (at most 8)">,
    Option<"schedule", "schedule", "std::string", /*default=*/"\"auto\"",
           "How the two consumer warpgroups share a CTA's tiles, for a GEMM "
           "without a coda.plan: \"auto\" (coda-plan-kernels' choice), "
           "\"cooperative\" (both on one tile, each on its own rows), "
           "\"pingpong\" (each its own tiles, one's epilogue overlapping "
           "the other's mainloop) or \"epilogue-warpgroup\" (cooperative, "
           "the epilogue run by a fourth warpgroup under the next tile's "
           "mainloop)">,
    Option<"groupRows", "group-rows", "unsigned",
           /*default=*/"::mlir::coda::kDefaultGroupRows",
           "Row tiles per group of a GEMM's tile order, for a GEMM without "
           "a coda.plan: the CTAs sweep the column tiles over a group's "
           "rows together (at least 1)">,
  ];
}

def CodaSplitNormGradientsPass
    : Pass<"coda-split-norm-gradients", "::mlir::func::FuncOp"> {
  let summary = "turn norm gradients into a row kernel and a sum of partials";
  let description = [{
    Rewrites every `coda.rms_norm_grad` for the GPU into
    `coda.rms_norm_grad_partials`, which a row kernel computes (dx, and the
    sums of dgamma over blocks of rows), and `coda.sum_rows` of those
    partials; every `coda.layer_norm_grad` likewise into
    `coda.layer_norm_grad_partials` (the sums of dgamma and of dbeta) and
    a `coda.sum_rows` for each. When dx's only user is a residual sum `coda.add` whose other
    operand exists before the gradient, the sum is made by the row kernel
    too, so the residual stream's gradient is accumulated where dx is
    computed instead of in an elementwise kernel of its own.

    ```mlir
    %dx, %dg = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32} : ...
    %d = coda.add %dres, %dx : ...
    // becomes
    %p, %d = coda.rms_norm_grad_partials %x, %g, %dy, %dres
        {epsilon = 1.0e-05 : f32} : ... -> (tensor<264x2048xf32>, ...)
    %dg = coda.sum_rows %p : (tensor<264x2048xf32>) -> tensor<2048xbf16>
    ```
  }];
}

def CodaFormMapsPass : Pass<"coda-form-maps", "::mlir::func::FuncOp"> {
  let summary = "gather elementwise ops outside GEMMs into one kernel each";
  let description = [{
    Every op left outside the GEMM epilogues that an elementwise kernel runs
    (maps with a scalar form, slices, concats, "half" RoPE) is the root of a
    `coda.map` together with the ops of that kind whose result only it
    reads, transitively; a concat only as the root, since it picks its
    piece by column range. The map's inputs are the values the tree reads
    from outside; its kernel evaluates the tree per row, so the
    intermediates are never stored. A backward's inverse RoPE of the QKV
    cotangent, with the negated sine table, the slices of q, k and v and the
    concat, becomes one kernel that reads the cotangent once.

    A `coda.partial_reduce` of sums outside every GEMM whose only reader is
    a `coda.reduce_partials` of sums becomes a row-sum map (`row_sum`) of
    the value it sums and the elementwise ops that only feed it: a kernel
    that stores each row's sum alone (the z·dz identity's `Σ r · dr`).
  }];
}

def CodaPlanKernelsPass : Pass<"coda-plan-kernels", "::mlir::ModuleOp"> {
  let summary = "choose each GEMM kernel's schedule, ring and tile";
  let description = [{
    Decides, for every `coda.gemm`, what convert-coda-to-gpu will generate
    and records it on the op as `coda.plan`. A GEMM that already has a
    `coda.plan` keeps its schedule, stages and group rows over the options (a plan
    pinned by hand in the input, or one of an earlier run), and has the
    rest re-derived:

    * `schedule`: unless the option fixes one ("auto", the default,
      does not), "epilogue-warpgroup" for a GEMM whose epilogue computes
      more than the accumulator's store, reads neither a 16-bit [M, W]
      tile nor a per-column vector, has only 16-bit tile results (the
      hand-off rounds the accumulators to bf16, which partials and f32
      results would feel) and is not a weight gradient: two
      consumer warpgroups compute each tile
      as in "cooperative", hand their accumulators, rounded to bf16, to a
      fourth warpgroup through a 32 KiB shared-memory buffer and go on to
      the next tile while it runs the epilogue and stores the results from
      registers (the Llama-3-1B block's gate/up forward 7% faster, its QKV
      forward 3%; `bench/NOTES.md` §57). Every other GEMM is
      "cooperative": with tile inputs one epilogue warpgroup, which then
      loads them by TMA into a buffer of its own, runs the epilogue more
      slowly than the two consumers (`bench/NOTES.md` §81), its 160
      registers spill with a bias beside them, and a plain store gains
      nothing from the hand-off (1-6% slower). Cooperative beats
      ping-pong on every plain and fused shape of the block (steps 5-8,
      commands in `bench/gemm_kernel_check.sh`).
    * `stages`: the deepest ring that fits in the 227 KiB of a CTA, at most
      8, unless the option fixes it (measured: each slot fewer costs 5% or
      more). A kernel whose epilogue reads tile inputs through the ring
      and whose 16-bit tile results do not all fit in the staging the ring
      leaves stages results over those inputs' ring steps when that stages
      them all (not where a RoPE reads pairs of other batches), else gives
      up one slot (keeping at least 3) when that stages them all: a result
      stored from registers beside those inputs' values spills.
    * `consumers`: the CTA's consumer warpgroups, 2, or 3 for a
      cooperative weight gradient whose epilogue yields only the
      accumulator when its 384-row tiles keep 90% of 132 SMs busy in
      every wave and its 256-row tiles do not without a split (the
      block's QKV weight gradient: 128 tiles in one wave, unsplit;
      `bench/NOTES.md` §90). A plan may pin it; 3 anywhere else is an
      error (another GEMM's A box would have 384 rows, past TMA's 256).
    * `rows_per_tile` and `boxes`: 256 rows and one weight box per stage
      (384 rows with three consumers), or 128 rows and two boxes when the
      epilogue reads the accumulator at two column shifts (SwiGLU's gate
      and up).
    * `splits`: for a cooperative weight gradient (`a_layout = "km"`) whose
      epilogue loads nothing through the ring, the most parts (1, 2 or 4)
      its reduction over the rows may be cut into: the fewest whose units
      keep 90% of 132 SMs busy in every wave, else the fullest. For
      another cooperative GEMM of at least 64 k-tiles, the most parts (up
      to 8) its last row tile's reduction may be cut into whose split
      units fit one wave of 132 SMs (`bench/NOTES.md` §73). Each launch
      then takes the parts that pay for their partials at its row count
      and grid. 1 for every other GEMM. A plan may pin it (1, 2, 4 or 8,
      cooperative only).
    * `wide_tiles`: whether the GEMM's launches may take 128 x 256 tiles
      (each consumer's two m64 slabs side by side) where they fill fewer
      rounds of the grid than 256 x 128 tiles: 4097 rows by 2048 columns
      are 272 tiles of 256 x 128 (3 rounds of 132 SMs, the third of
      one-row tiles) and 264 of 128 x 256 (2 rounds). Over a dynamic row
      count `--convert-coda-to-gpu` emits a kernel of wide tiles
      (`NAME_wide`) beside the tall one, which the runtime launches where
      it fills fewer rounds; over a static one the planner sets it only
      where wide tiles win, and that kernel is the only one. Set for GEMMs
      over the rows with two consumers per tile (cooperative or with an
      epilogue warpgroup), one weight box, an output width that is a
      multiple of 256, and concat pieces and weights on 256-column
      boundaries, except where a partial reduces rows to a maximum or
      log-sum-exp (its kernel of wide tiles spilled; `bench/NOTES.md`
      §92-§93). A plan may pin it; `true` where the kernel cannot is an
      error that names the reason.
    * `group_rows`: the row tiles that sweep the column tiles together in
      the whole tiles' order, so that a wave's CTAs share their A rows and
      weight boxes in L2: the option's (8 by default), or the plan's when
      it has one. Larger groups read the weights from DRAM fewer times
      when they outgrow L2 (the gate/up forward's at 16384 rows: 16 times
      with 8; `bench/NOTES.md` §56, §79).

    It also fixes the partial layout that the IR keeps symbolic until now:
    every `coda.partial_reduce` of a GEMM's epilogue, and every
    `coda.reduce_partials` that finishes its partials, gets `tile_n = 128`,
    the kernel's column tile. A GEMM the generator cannot take is reported
    here, with the reason.
  }];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"0",
           "Ring slots: at least 2, or 0 for as many as fit">,
    Option<"schedule", "schedule", "std::string", /*default=*/"\"auto\"",
           "\"auto\", \"cooperative\", \"pingpong\" or "
           "\"epilogue-warpgroup\"">,
    Option<"groupRows", "group-rows", "unsigned",
           /*default=*/"::mlir::coda::kDefaultGroupRows",
           "Row tiles per group of the tile order (at least 1)">,
  ];
}

def CodaLowerKernelModulesPass
    : Pass<"coda-lower-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "lower the generated kernel modules through NVVM to PTX";
  let description = [{
    Lowers every `gpu.module` of the module (the kernels of
    convert-coda-to-gpu) through NVGPU, NVVM and LLVM to PTX for `sm_90a`
    (O3, PTX ISA 8.0) and replaces it with a `gpu.binary` holding the PTX
    text, leaving the host functions as they are (at the coda level, each
    GEMM naming its kernel). The kernel modules are lowered apart from the
    host code by MLIR's GPU-to-NVVM pipeline; libdevice comes from
    CUDA_ROOT (/usr/local/cuda when unset). Their floating-point arithmetic
    may contract (a multiply and an add into one `fma`), as nvcc's default
    `-fmad=true` lets it.

    A module's kernels lower in up to four parts of about equal size, in
    parallel (most of the time is LLVM's, one module per thread), and the
    parts' PTX is joined in the kernels' order: one header, each external
    declaration once. Each kernel's PTX is what one module gives, but for
    the names numbered per module (labels, mbarriers), which are the
    kernel's own. The number of parts does not follow the machine's
    threads, so the PTX is the same everywhere. A module that holds a
    symbol other than its kernels and variables in workgroup memory (a
    device function, a global in device memory) lowers whole.
  }];
}

#endif // CODA_CONVERSION_PASSES_TD
