//===- Passes.td - coda graph rewrites ---------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_TRANSFORMS_PASSES_TD
#define CODA_DIALECT_CODA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CodaMergeParallelLinearsPass
    : Pass<"coda-merge-parallel-linears", "::mlir::func::FuncOp"> {
  let summary = "merge linears that share an input into one GEMM";
  let description = [{
    Linears in one block that read the same activation (gate and up of a
    SwiGLU MLP; q, k and v) become one `coda.gemm` over all their weights,
    whose result is sliced back into the original outputs. The weights are
    not concatenated in memory: each stays a separate B operand, so the merged
    kernel shares one mainloop over the activation. Biases are added in the
    epilogue. The rewrite is exact: every output element is the same f32 dot
    product rounded once.

    Linears merge only when their results have one element type and their
    weights and biases are defined before the first of them.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect"];
  let options = [
    Option<"maxWeights", "max-weights", "unsigned", /*default=*/"0",
           "Largest number of linears merged into one GEMM (0: no limit)">,
  ];
}

def CodaSumProductsPass : Pass<"coda-sum-products", "::mlir::func::FuncOp"> {
  let summary = "sum GEMMs that are added into one accumulator";
  let description = [{
    A `coda.gemm` whose epilogue adds another GEMM's plain product to its
    accumulator (`acc + x` where `x = a₂ · W₂ᵀ` is read nowhere else) takes
    that product over: it becomes one GEMM summing both products into its
    f32 accumulator (`%a1, [%w1] + %a2, [%w2]`), and the other GEMM goes
    away. The input gradient of a SwiGLU MLP, `dG · W_gate + dU · W_up`, is
    one kernel whose mainloop runs over both, and the partial product is
    neither rounded to its element type nor stored: the result is the
    rounding of the exact f32 sum.

    Products merge when they share their layouts and their weights' columns,
    and reduce over a static K (`a_layout = "mk"`); a weight gradient's
    reduction over the rows is split by the kernel generator instead.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect"];
}

def CodaReparameterizeNormsPass
    : Pass<"coda-reparameterize-norms", "::mlir::func::FuncOp"> {
  let summary = "move normalizations before a GEMM into statistics and a row scale";
  let description = [{
    An RMSNorm whose result feeds only GEMMs is rewritten with its per-row
    scale commuted past the GEMM:
    `(rstd · x · gamma) Wᵀ = rstd · ((x · gamma) Wᵀ)`. It becomes partial sums
    of squares of `x` (`coda.partial_reduce`), a finishing reduction to
    `rstd` (`coda.reduce_partials`), the side value `h = x · gamma`, and a
    per-row scale by `rstd` in each consuming GEMM's epilogue. When `x` is
    produced by a GEMM, `coda-form-epilogues` then moves the statistics and
    `h` into that GEMM's epilogue; otherwise (the first layer) they stay a
    standalone statistics kernel, except for an RMSNorm of 16-bit elements,
    which stays a norm: its `h = x · gamma` would round the product of two
    16-bit tensors, whose rounding errors correlate with the values and bias
    the GEMM's outputs, where the norm rounds `x · rstd · gamma` once.

    With `fold-gamma-into-weights` (inference), gamma is folded into each
    consuming weight instead (`W · diag(gamma)`, one elementwise op per
    weight) and the GEMMs read `x` directly.

    LayerNorm is rewritten the same way with sums and sums of squares:
    `((x − μ) · rstd · gamma + beta) Wᵀ + b =
    rstd · ((x · gamma) Wᵀ) − (rstd · μ) · c + d`, where `c = gamma Wᵀ` and
    `d = beta Wᵀ + b` are per-column vectors computed from the weights.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"foldGammaIntoWeights", "fold-gamma-into-weights", "bool",
           /*default=*/"false",
           "Fold gamma into the consuming weights (inference) instead of "
           "keeping h = x * gamma (training)">,
  ];
}

def CodaFormEpiloguesPass
    : Pass<"coda-form-epilogues", "::mlir::func::FuncOp"> {
  let summary = "absorb tile-local consumers into the producing GEMM's epilogue";
  let description = [{
    Turns every `coda.linear` into a `coda.gemm` (and every `coda.matmul`,
    its `[K, N]` operand read MN-major, `b_layout = "kn"`: the dgrad of a
    backward), then repeatedly moves a
    tile-local consumer of a GEMM result into that GEMM's epilogue: residual
    and bias adds, vector and per-row scales, activations, SwiGLU on two
    column ranges of one GEMM, RoPE on a column range, slices, concats, a
    cross-entropy's gradient from its rows' statistics
    (`coda.softmax_target_grad`) and partial reductions. A consumer's other
    operands become inputs of the GEMM when they are defined before it. A
    GEMM result that still has users outside stays an output, so one GEMM
    can store several side outputs (the new residual stream and `h`, say).
    An `arith.truncf` of a GEMM result becomes a result of the narrower type,
    so the wider one is stored only if something else reads it. Each
    absorbed op saves a full write and read of its operand through HBM.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect"];
  let options = [
    Option<"maxEpilogueOps", "max-epilogue-ops", "unsigned",
           /*default=*/"64",
           "Largest number of ops in one epilogue; consumers past it stay "
           "outside">,
  ];
}

def CodaRecomputeInEpiloguesPass
    : Pass<"coda-recompute-in-epilogues", "::mlir::func::FuncOp"> {
  let summary = "compute tile-local ops on a GEMM's epilogue inputs as its results";
  let description = [{
    A graph-level elementwise op (tile-local, not a slice, concat or
    partial reduction) that reads no GEMM result, whose tile operands (of
    its result's shape `[M, W]`, W > 1) are all inputs of a later GEMM's
    epilogue and whose result has the type of one of that GEMM's results,
    becomes one more result of the first such GEMM that comes before every
    reader of the op, or that the readers before it can follow: a reader
    whose results nothing up to the GEMM reads moves to just after it. Its
    per-row (`[M, 1]`) and per-column (`[W]`) operands become inputs of the
    GEMM when they are defined before it; an op with any other operand
    stays. The epilogue has the tiles in registers, so the value costs one
    tile store instead of a kernel that reads the tiles again: a training
    pair's backward recomputes the SwiGLU output from the saved gate and
    up, which the GEMM of its gradient reads anyway, and a norm from its
    saved scales (`mul_outer(x, rstd, gamma)`) beside the dgrad whose
    epilogue takes that norm's gradient.

    ```mlir
    %act = coda.swiglu %gate, %up : ...
    %d:2 = coda.gemm %dy, [%w] inputs(%up, %gate) {b_layout = "kn"} : ... {
      ...
    }
    %dw = coda.gemm %dy, [%act] {a_layout = "km", b_layout = "kn"} : ...
    // becomes
    %d:3 = coda.gemm %dy, [%w] inputs(%up, %gate) {b_layout = "kn"} : ... {
    ^bb0(%acc: ..., %u: ..., %g: ...):
      ...
      %a = coda.swiglu %g, %u : ...
      coda.yield ..., %a : ...
    }
    %dw = coda.gemm %dy, [%d#2] {a_layout = "km", b_layout = "kn"} : ...
    ```

    A GEMM whose epilogue already has `max-epilogue-ops` ops takes no more,
    as in `coda-form-epilogues`.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect"];
  let options = [
    Option<"maxEpilogueOps", "max-epilogue-ops", "unsigned",
           /*default=*/"64",
           "Largest number of ops in one epilogue; a GEMM at it computes no "
           "more recomputed values">,
  ];
}

def CodaInlineEpiloguesPass
    : Pass<"coda-inline-epilogues", "::mlir::func::FuncOp"> {
  let summary = "turn GEMM-epilogue programs back into graph-level ops";
  let description = [{
    Replaces each `coda.gemm` by its f32 product (a `coda.linear` or
    `coda.matmul` per weight, concatenated), the inputs widened to f32 with
    `arith.extf`, the epilogue's ops inlined, and each yielded value rounded
    to its result type with `arith.truncf`. The result computes exactly what
    the GEMM computes, with graph-level ops that the CPU reference path
    lowers; it is not a program to run on the GPU.

    A GEMM that reads `a` as `[K, M]` ("km", a weight gradient) becomes a
    `coda.transposed_matmul` when its weights are `[K, N]` ("kn"); with
    `[N, K]` weights it is reported as an error.
    A `coda.map` is replaced the same way: its inputs widened, its region
    inlined, the yielded value rounded once.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::coda::CodaDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CodaGenerateBackwardPass
    : Pass<"coda-generate-backward", "::mlir::ModuleOp"> {
  let summary = "derive the training pair of each graph-level function";
  let description = [{
    For each graph-level function `@f` (every function that holds coda ops
    and no `coda.gemm`, or those `functions` names), adds:

    * `@f_forward`: `@f` returning, after its own results, the values its
      backward reads that are not arguments. These are the outputs of
      linears and matmuls and the residual sums (`coda.add`): the residual
      streams, the SwiGLU pre-activation, the logits. Everything else the
      backward needs (a norm's output, an activation) is recomputed there
      from those values.
    * `@f_backward`: from the arguments of `@f`, the saved values and one
      cotangent per result of `@f`, to the gradient of every floating-point
      argument, in argument order. The RoPE tables (the `cos` and `sin` of
      `coda.rope`) are inputs without gradients; the result attribute
      `coda.gradient_of` gives each gradient's argument number.

    Both carry `coda.saved`, the number of saved values. The gradients are
    graph-level ops, so the fusion pipeline and the CPU reference path take
    them as they take the forward: norm, activation and loss gradients are
    ops of their own (`coda.rms_norm_grad`, ...), SwiGLU's is elementwise
    (`coda.swiglu` of the gate and the cotangent, `coda.mul`,
    `coda.activation_grad`), weight and vector
    gradients reduce over rows (`coda.transposed_matmul`, `coda.sum_rows`),
    RoPE's is the inverse rotation, and the gradient of a value with several
    users is the sum of their contributions.

    A function the pass cannot differentiate is reported at the op at
    fault: attention (a boundary whose backward the caller provides), ops of
    the epilogue-program level, a value whose slices leave columns without
    a gradient, an argument that reaches no result.

    A product whose result type differs from its operands' (f32 logits of a
    bf16 LM head) gets its cotangent rounded to the operands' type
    (`arith.truncf`) before the product that carries it back, as autocast
    does.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::coda::CodaDialect"];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The functions to differentiate (default: every graph-level "
               "function)">,
    Option<"saveActivations", "save-activations", "bool", /*default=*/"false",
           "Save the activation and SwiGLU outputs the backward reads (the "
           "operands of weight gradients) instead of recomputing them: a "
           "faster backward for one more tensor per activation held from "
           "the forward to the backward">,
  ];
}

def CodaFusionReportPass : Pass<"coda-fusion-report", "::mlir::ModuleOp"> {
  let summary = "print kernels, HBM traffic and unfused ops of each function";
  let description = [{
    Prints, for each function, the number of kernels and an estimate of the
    HBM bytes they move, before and after a fusion pipeline, and for every op
    that remains a kernel of its own the reason it was not fused. The module
    itself is left unchanged: the pipeline runs on a copy of each function.

    Every coda op but `coda.slice` (a view) counts as one kernel that reads
    each operand and writes each result once. Tensors with a dynamic row count
    are counted at `rows` rows; a symbolic number of partials is counted at
    one per 128 columns.
  }];
  let dependentDialects = ["::mlir::coda::CodaDialect"];
  let options = [
    Option<"rows", "rows", "int64_t", /*default=*/"4096",
           "Row count at which bytes are reported (at least 1)">,
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"coda-gpu-fuse-pipeline\"",
           "The function pipeline whose effect is reported">,
    Option<"maxEpilogueOps", "max-epilogue-ops", "unsigned",
           /*default=*/"64",
           "The epilogue size limit the pipeline uses, to explain refusals">,
  ];
}

#endif // CODA_DIALECT_CODA_TRANSFORMS_PASSES_TD
