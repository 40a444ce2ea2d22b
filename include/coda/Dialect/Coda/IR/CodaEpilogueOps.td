//===- CodaEpilogueOps.td - coda epilogue-program ops ------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The epilogue-program level: a GEMM with a fixed mainloop and a region that
// runs on the f32 output tile before anything is stored, plus the small
// reductions that finish per-tile partial statistics.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODAEPILOGUEOPS_TD
#define CODA_DIALECT_CODA_IR_CODAEPILOGUEOPS_TD

include "coda/Dialect/Coda/IR/CodaBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

def Coda_GemmOp : Coda_OpBase<"gemm", [AttrSizedOperandSegments,
                                       IsolatedFromAbove]> {
  let summary = "a GEMM whose epilogue runs on the output tile in registers";
  let description = [{
    Computes the f32 product `acc = a · bᵀ` of `a : [M, K]` and the weights
    `b₀, b₁, ... : [Nᵢ, K]` stacked along their rows (`N = Σ Nᵢ`), then runs
    the `epilogue` region on `acc` and yields the results. Several weights
    share the mainloop without being concatenated in memory: the kernel loads
    each as its own B box, so gate and up (or q, k and v) columns stay in
    their own sub-tiles.

    A sum of products, `acc = a⁽¹⁾ · b⁽¹⁾ᵀ + a⁽²⁾ · b⁽²⁾ᵀ + ...`, is written
    `%a1, [%w1] + %a2, [%w2]`: each product has its own `a` (same `M`, its
    own `Kᵖ`) and as many weights as the first, of the same columns, and all
    of them accumulate into the one f32 `acc` (the kernel runs their k-tiles
    back to back). The input gradient of a SwiGLU MLP, `dG · W_gate + dU ·
    W_up`, is one such GEMM: no intermediate is rounded or stored.

    The region's first argument is `acc : tensor<M x N x f32>`; then comes
    one argument per `inputs` operand, of its shape with f32 elements for a
    floating-point input (values are widened when loaded) and its own type
    otherwise. The region may use only tile-local ops: elementwise and
    broadcasting maps, pairwise maps whose partners lie in one row (`swiglu`
    on two column ranges, `rope`, `slice`, `concat`) and partial reductions
    (`coda.partial_reduce`). It ends in `coda.yield`; each yielded value is
    rounded once to the element type of the matching result.

    `accumulate = array<i64: ...>` accumulates results into inputs: entry
    `i >= 0` makes result `i` the sum of input `accumulate[i]` and the
    yielded value, rounded once and stored in place of that input (the
    residual-stream gradient of the backward pass); -1 stores the yielded
    value as it is.

    `a_layout = "mk"` reads `a` as `[M, K]` (row-major, K contiguous) and
    `"km"` as `[K, M]`; `b_layout = "nk"` reads each weight as `[N, K]` (the
    `nn.Linear` layout) and `"kn"` as `[K, N]`.

    Constraints:
    * (gemm_c1) at least one weight; all weights agree with their
      product's `a` on `K` and share its element type; every weight has a
      static number of columns `Nᵢ`.
    * (gemm_c7) with several products, the weights divide evenly among them;
      every product's weights have the first product's columns, and every
      `a` has the first one's `M` and element type.
    * (gemm_c2) the region has one argument for `acc` of type
      `tensor<M x N x f32>` and one per input, as described above.
    * (gemm_c3) `coda.yield` yields one value per result, each of the
      result's shape with f32 elements.
    * (gemm_c4) every op in the region is tile-local.
    * (gemm_c6) `accumulate`, when present, has one entry per result: -1,
      or the index of an input of the result's type that the result is
      accumulated into; no input takes two results.
    * (gemm_c5) the contiguous dimension of `a`, of every weight and of
      every result with static columns is static and gives rows of a multiple
      of 16 bytes: TMA moves every tile.

    ```mlir
    %x1, %p = coda.gemm %y, [%w] inputs(%res) : (tensor<?x64xbf16>,
        tensor<32x64xbf16>, tensor<?x32xbf16>) -> (tensor<?x32xbf16>,
        tensor<?x?xf32>) {
    ^bb0(%acc: tensor<?x32xf32>, %r: tensor<?x32xf32>):
      %x = coda.add %acc, %r
          : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
      %s = coda.partial_reduce %x {kind = "sum_squares"}
          : (tensor<?x32xf32>) -> tensor<?x?xf32>
      coda.yield %x, %s : tensor<?x32xf32>, tensor<?x?xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Coda_Matrix>:$a, Variadic<Coda_Matrix>:$b,
                       Variadic<Coda_EpilogueInput>:$inputs,
                       Coda_StrEnumAttr<["mk", "km"], "mk">:$a_layout,
                       Coda_StrEnumAttr<["nk", "kn"], "nk">:$b_layout,
                       OptionalAttr<DenseI64ArrayAttr>:$accumulate);
  let results = (outs Variadic<Coda_MatrixOrVector>:$results);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    custom<GemmProducts>($a, $b) (`inputs` `(` $inputs^ `)`)? attr-dict
    `:` functional-type(operands, results) $epilogue
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    /// Builds a GEMM with the given result types and an epilogue block whose
    /// arguments follow gemm_c2; the caller fills the block and its yield.
    OpBuilder<(ins "TypeRange":$resultTypes, "ValueRange":$a, "ValueRange":$b,
                   "ValueRange":$inputs,
                   CArg<"::llvm::StringRef", "\"mk\"">:$aLayout,
                   CArg<"::llvm::StringRef", "\"nk\"">:$bLayout)>
  ];
  let extraClassDeclaration = [{
    /// The number of output columns: the rows of all weights together.
    int64_t getN();
    /// The number of rows of the product (possibly dynamic).
    int64_t getM();
    /// The contraction size of the first product.
    int64_t getK();
    /// The number of products summed into the accumulator.
    unsigned getNumProducts() { return getA().size(); }
    /// The `a` of the first product: its rows are the GEMM's.
    TypedValue<RankedTensorType> getFirstA() {
      return cast<TypedValue<RankedTensorType>>(getA().front());
    }
    /// The output columns of `weight`, one of the GEMM's: its rows read as
    /// `[N, K]` (b_layout "nk"), else its columns.
    int64_t getWeightColumns(Value weight);
    /// The weights of product `product`, stacked along their rows (all of
    /// them for an op without products, which the verifier rejects).
    ValueRange getProductWeights(unsigned product) {
      if (getNumProducts() == 0)
        return getB();
      unsigned count = getB().size() / getNumProducts();
      return getB().slice(product * count, count);
    }
    /// The type of the accumulator: `tensor<M x N x f32>`.
    RankedTensorType getAccumulatorType();
    /// The epilogue's single block.
    Block &getBody() { return getEpilogue().front(); }
    /// The block argument carrying the accumulator.
    BlockArgument getAccumulator() { return getBody().getArgument(0); }
    /// The block argument carrying input `i`.
    BlockArgument getInputArgument(unsigned i) {
      return getBody().getArgument(1 + i);
    }
    /// The type an input has inside the region: f32 elements when floating.
    static Type getRegionType(Type inputType);
  }];
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

def Coda_MapOp : Coda_OpBase<"map", [IsolatedFromAbove]> {
  let summary = "tile-local ops outside a GEMM that run as one kernel";
  let description = [{
    Runs its region, a program of tile-local ops of one row, on the rows of
    its inputs, and yields one value, rounded once to the result's element
    type: the elementwise kernel of several ops, whose intermediates are
    never stored. `coda-form-maps` builds it on the GPU path from an op that
    no GEMM takes and the ops that only feed it (a cotangent's inverse RoPE
    with its slices and concat, say).

    The region has one argument per input, of its shape with f32 elements
    for a floating-point input, as a GEMM epilogue's inputs.

    With `row_sum`, the map gives the sum of the yielded value over each
    row's columns, `[M, 1]` f32, and stores nothing per element: a row
    statistic of its inputs (`Σ r · dr`, the z·dz identity's statistic taken
    from a product's rotated results and their cotangents, say), which
    `coda-form-maps` builds from a `coda.partial_reduce` and
    `coda.reduce_partials` of sums that no GEMM takes.

    Constraints:
    * (map_c1) one region argument per input, of the type described above.
    * (map_c2) `coda.yield` yields one value, of the result's shape with f32
      elements; with `row_sum`, of the result's rows and any width, and the
      result is `[M, 1]` f32.
    * (map_c3) every op in the region is tile-local.

    ```mlir
    %y = coda.map inputs(%x, %c, %s) : (tensor<?x384xbf16>, tensor<?x32xf32>,
        tensor<?x32xf32>) -> tensor<?x384xbf16> {
    ^bb0(%a: tensor<?x384xf32>, %cos: tensor<?x32xf32>, %sin: tensor<?x32xf32>):
      %q = coda.slice %a {offset = 0 : i64, size = 256 : i64}
          : (tensor<?x384xf32>) -> tensor<?x256xf32>
      %r = coda.rope %q, %cos, %sin {head_dim = 64 : i64}
          : (tensor<?x256xf32>, tensor<?x32xf32>, tensor<?x32xf32>)
          -> tensor<?x256xf32>
      %v = coda.slice %a {offset = 256 : i64, size = 128 : i64}
          : (tensor<?x384xf32>) -> tensor<?x128xf32>
      %y = coda.concat %r, %v
          : (tensor<?x256xf32>, tensor<?x128xf32>) -> tensor<?x384xf32>
      coda.yield %y : tensor<?x384xf32>
    }

    ```mlir
    %s = coda.map inputs(%r, %dr) {row_sum}
        : (tensor<?x3072xbf16>, tensor<?x3072xbf16>) -> tensor<?x1xf32> {
    ^bb0(%a: tensor<?x3072xf32>, %b: tensor<?x3072xf32>):
      %p = coda.mul %a, %b
          : (tensor<?x3072xf32>, tensor<?x3072xf32>) -> tensor<?x3072xf32>
      coda.yield %p : tensor<?x3072xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Coda_EpilogueInput>:$inputs,
                       UnitAttr:$row_sum);
  let results = (outs Coda_Matrix:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`inputs` `(` $inputs^ `)`)? attr-dict `:` functional-type(operands, results)
    $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The region's single block.
    Block &getBlock() { return getBody().front(); }
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Coda_YieldOp : Op<Coda_Dialect, "yield",
    [Pure, Terminator, ReturnLike, ParentOneOf<["GemmOp", "MapOp"]>]> {
  let summary = "the values a GEMM epilogue or a map stores";
  let description = [{
    Ends the epilogue of a `coda.gemm` or the region of a `coda.map`. Each
    operand is rounded to the element type of the matching result of its
    parent and stored.
  }];
  let arguments = (ins Variadic<Coda_EpilogueInput>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// PartialReduceOp
//===----------------------------------------------------------------------===//

def Coda_PartialReduceOp : Coda_OpBase<"partial_reduce"> {
  let summary = "per-tile partial reductions along each row";
  let description = [{
    Reduces each row of `x : [M, N]` over consecutive blocks of `tile_n`
    columns, giving `[M, ceil(N / tile_n)]` f32 partials that
    `coda.reduce_partials` finishes. `kind` is `"sum"`, `"sum_squares"`,
    `"centered_sum_squares"` (the sum of squared deviations from the block's
    own mean, which combines without cancellation into a variance), `"max"`,
    or `"lse"` (the log-sum-exp of the block). Inside a GEMM
    epilogue the block is the GEMM's N-tile; outside one, the op is a
    standalone statistics kernel. The number of blocks stays symbolic
    (`tensor<M x ? x f32>`) until kernels are planned; `tile_n`, when absent,
    is the planner's choice and the CPU reference uses 128.

    Constraints:
    * (partial_reduce_c1) the result is `tensor<M x T x f32>` with `T`
      dynamic or `ceil(N / tile_n)`.
    * (partial_reduce_c2) `tile_n`, when present, is positive.

    ```mlir
    %p = coda.partial_reduce %x {kind = "sum_squares"}
        : (tensor<?x2048xf32>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x,
                       Coda_StrEnumAttr<["sum", "sum_squares",
                                         "centered_sum_squares", "max", "lse"],
                                        "sum">:$kind,
                       OptionalAttr<I64Attr>:$tile_n);
  let results = (outs 2DTensorOf<[F32]>:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The width of the column blocks the CPU reference reduces when no tile
    /// has been planned.
    static constexpr int64_t kDefaultTileN = 128;
    /// The planned block width, or the CPU reference's default.
    int64_t getTileNOrDefault() { return getTileN().value_or(kDefaultTileN); }
  }];
}

//===----------------------------------------------------------------------===//
// PartialSumRowsOp
//===----------------------------------------------------------------------===//

def Coda_PartialSumRowsOp : Coda_OpBase<"partial_sum_rows"> {
  let summary = "per-block partial sums over the rows";
  let description = [{
    Sums `x : [M, N]` over consecutive blocks of `block_rows` rows, giving
    `[ceil(M / block_rows), N]` f32 partials whose `coda.sum_rows` is the
    sum over all rows: a reduction over rows (dgamma, a bias gradient) that
    a GEMM epilogue computes tile by tile. Inside an epilogue, a block is
    the 16 rows of one warp's share of a wgmma m64 slab, so `block_rows` is
    16 there; a launch plan sizes the partials as `ceil(M / 16)` rows.

    Constraints:
    * (partial_sum_rows_c1) `block_rows` is positive.
    * (partial_sum_rows_c2) the result is `tensor<R x N x f32>`, `R` dynamic
      or `ceil(M / block_rows)`.

    ```mlir
    %p = coda.partial_sum_rows %x {block_rows = 16 : i64}
        : (tensor<?x2048xf32>) -> tensor<?x2048xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, I64Attr:$block_rows);
  let results = (outs 2DTensorOf<[F32]>:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The rows of a block of the partials a GEMM epilogue computes.
    static constexpr int64_t kEpilogueBlockRows = 16;
  }];
}

//===----------------------------------------------------------------------===//
// ReducePartialsOp
//===----------------------------------------------------------------------===//

def Coda_ReducePartialsOp : Coda_OpBase<"reduce_partials"> {
  let summary = "finish per-tile partials into one statistic per row";
  let description = [{
    Combines the partials of `coda.partial_reduce` along their second
    dimension into one f32 value per row, `[M, 1]`:

    * `"sum"`: the sum of the partials;
    * `"max"`: their maximum;
    * `"lse"`: the log-sum-exp of per-block log-sum-exps;
    * `"rstd"`: `rsqrt(Σ / count + epsilon)` of sums of squares, the RMSNorm
      scale;
    * `"mean_rstd"`: two operands, block sums `sⱼ` and centered sums of
      squares `cⱼ` over blocks of `tile_n` columns (`nⱼ` columns each, the
      last block holding the rest of `count`), and two results: the mean
      `μ = Σ sⱼ / count` and `rsqrt(var + epsilon)` with
      `var = (Σ cⱼ + Σ nⱼ (sⱼ / nⱼ − μ)²) / count`, the LayerNorm statistics
      combined without the cancellation of `E[x²] − μ²`.

    Constraints:
    * (reduce_partials_c1) `"mean_rstd"` takes two partials and gives two
      results; every other kind takes one and gives one.
    * (reduce_partials_c2) all partials and results have the same rows;
      results are `[M, 1]`.
    * (reduce_partials_c3) `"rstd"` and `"mean_rstd"` have a positive
      `count` and a finite, non-negative `epsilon`; `tile_n`, when present,
      is positive (128 when absent, as for `coda.partial_reduce`).

    ```mlir
    %r = coda.reduce_partials %p {kind = "rstd", count = 2048 : i64,
        epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Variadic<2DTensorOf<[F32]>>:$partials,
                       Coda_StrEnumAttr<["sum", "max", "lse", "rstd",
                                         "mean_rstd"], "sum">:$kind,
                       OptionalAttr<I64Attr>:$count,
                       OptionalAttr<F32Attr>:$epsilon,
                       OptionalAttr<I64Attr>:$tile_n);
  let results = (outs Variadic<2DTensorOf<[F32]>>:$results);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The block width of the partials.
    int64_t getTileNOrDefault() {
      return getTileN().value_or(PartialReduceOp::kDefaultTileN);
    }
  }];
}

//===----------------------------------------------------------------------===//
// PartialGatherOp
//===----------------------------------------------------------------------===//

def Coda_PartialGatherOp : Coda_OpBase<"partial_gather"> {
  let summary = "per-tile partial of the element each row's target selects";
  let description = [{
    For each row `m` and block `j` of `tile_n` columns of `x : [M, N]`, gives
    `x[m, targets[m]]` when that column lies in block `j` and 0 otherwise,
    so that the sum of a row's partials is the target's value (0 for a
    target outside `[0, N)`, such as an ignored row). In an LM head's
    epilogue it selects the target logits without storing the logits.

    Constraints:
    * (partial_gather_c1) `targets` has one element per row of `x`.
    * (partial_gather_c2) the result is `tensor<M x T x f32>`, `T` dynamic or
      `ceil(N / tile_n)`.

    ```mlir
    %t = coda.partial_gather %logits, %targets
        : (tensor<?x32768xf32>, tensor<?xi64>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Targets:$targets,
                       OptionalAttr<I64Attr>:$tile_n);
  let results = (outs 2DTensorOf<[F32]>:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// CrossEntropyFromPartialsOp
//===----------------------------------------------------------------------===//

def Coda_CrossEntropyFromPartialsOp
    : Coda_OpBase<"cross_entropy_from_partials"> {
  let summary = "cross-entropy finished from per-tile log-sum-exps and target logits";
  let description = [{
    Finishes a cross-entropy whose logits were never stored: per row,
    `logsumexp_j(lse[m, j]) − Σ_j target[m, j]`, with rows whose target is
    `ignore_index` contributing 0, reduced as `coda.cross_entropy` does
    (`"mean"` over the rows not ignored, `"sum"`, or `"none"`).

    Constraints:
    * (cross_entropy_from_partials_c1) `lse`, `target_logits` and `targets`
      have the same rows.
    * (cross_entropy_from_partials_c2) the result is `tensor<f32>` for
      `"mean"` and `"sum"` and `tensor<M x f32>` for `"none"`.

    ```mlir
    %loss = coda.cross_entropy_from_partials %lse, %logit, %targets
        : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<f32>
    ```
  }];
  let arguments = (ins 2DTensorOf<[F32]>:$lse, 2DTensorOf<[F32]>:$target_logits,
                       Coda_Targets:$targets,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
                       Coda_StrEnumAttr<["mean", "sum", "none"], "mean">:$reduction);
  let results = (outs Coda_Loss:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// NormStatisticsOp
//===----------------------------------------------------------------------===//

def Coda_NormStatisticsOp : Coda_OpBase<"norm_statistics"> {
  let summary = "per-row statistics of a norm's input, and x · gamma, in one pass";
  let description = [{
    The standalone statistics kernel of a norm whose input no GEMM produces
    (the first layer): reads `x` once and gives, when `gamma` is present,
    `h = x · gamma` for `"rms_norm"` and the centered `h = (x − μ) · gamma`
    for `"layer_norm"` (rounded to the first result's type), then the
    per-row `rstd` and, for `"layer_norm"`, the mean `μ`, both `[M, 1]` f32:
    `rstd = rsqrt(mean(x²) + ε)` for `"rms_norm"`,
    `rstd = rsqrt(var(x) + ε)` (biased) for `"layer_norm"`.

    Constraints:
    * (norm_statistics_c1) the results are `h` (when `gamma` is present),
      `rstd`, and `μ` (for `"layer_norm"`).
    * (norm_statistics_c2) `h` has the type of `x`; the statistics are
      `[M, 1]` f32; `gamma` has one element per column of `x` and its
      element type.
    * (norm_statistics_c3) `epsilon` is finite and not negative.

    ```mlir
    %h, %rstd = coda.norm_statistics %x, %g {kind = "rms_norm",
        epsilon = 1.0e-05 : f32}
        : (tensor<?x2048xbf16>, tensor<2048xbf16>)
        -> (tensor<?x2048xbf16>, tensor<?x1xf32>)
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Optional<Coda_Vector>:$gamma,
                       Coda_StrEnumAttr<["rms_norm", "layer_norm"],
                                        "rms_norm">:$kind,
                       F32Attr:$epsilon);
  let results = (outs Variadic<Coda_Matrix>:$results);
  let hasVerifier = 1;
}

#endif // CODA_DIALECT_CODA_IR_CODAEPILOGUEOPS_TD
