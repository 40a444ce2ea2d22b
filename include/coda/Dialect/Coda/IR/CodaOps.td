//===- CodaOps.td - coda graph-level operations ------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODAOPS_TD
#define CODA_DIALECT_CODA_IR_CODAOPS_TD

include "coda/Dialect/Coda/IR/CodaBase.td"

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

def Coda_LinearOp : Coda_Op<"linear"> {
  let summary = "x times the transpose of a weight, with an optional bias";
  let description = [{
    Computes `y = x wᵀ (+ bias)` with `x : [M, K]` and a PyTorch `nn.Linear`
    weight `w : [N, K]`, accumulating in f32 and rounding once to the result
    element type.

    Constraints:
    * (linear_c1) `x` and `w` have the same `K` (`dim(x, 1) == dim(w, 1)`).
    * (linear_c2) the result is `[M, N]` with `M = dim(x, 0)` and
      `N = dim(w, 0)`.
    * (linear_c3) `bias`, when present, has `N` elements.
    * (linear_c4) `x`, `w` and `bias` share one element type.
    * (linear_c5) the rows of `x`, `w` and the result are multiples of 16 bytes
      (`K` and `N` are multiples of 8 for bf16/f16, of 4 for f32): TMA, which
      moves every tile, cannot address other strides.
    * (linear_c6) `w` has a static shape.

    ```mlir
    %y = coda.linear %x, %w, %b
        : (tensor<?x2048xbf16>, tensor<512x2048xbf16>, tensor<512xbf16>)
        -> tensor<?x512xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Matrix:$w,
                       Optional<Coda_Vector>:$bias);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

def Coda_MatmulOp : Coda_Op<"matmul"> {
  let summary = "product of two matrices";
  let description = [{
    Computes `y = a b` with `a : [M, K]` and `b : [K, N]`, accumulating in f32
    and rounding once to the result element type.

    Constraints:
    * (matmul_c1) `dim(a, 1) == dim(b, 0)`.
    * (matmul_c2) the result is `[M, N]` with `M = dim(a, 0)`, `N = dim(b, 1)`.
    * (matmul_c3) `a` and `b` share one element type.
    * (matmul_c4) the rows of `a`, `b` and the result are multiples of 16
      bytes (the TMA stride rule, as `linear_c5`).
    * (matmul_c5) `b` has a static shape.

    ```mlir
    %y = coda.matmul %a, %b
        : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$a, Coda_Matrix:$b);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RMSNormOp
//===----------------------------------------------------------------------===//

def Coda_RMSNormOp : Coda_Op<"rms_norm"> {
  let summary = "root-mean-square normalization of each row";
  let description = [{
    Computes `y = x · rsqrt(mean_row(x²) + epsilon) · gamma`, the statistic in
    f32.

    Constraints:
    * (rms_norm_c1) `gamma` has `D = dim(x, 1)` elements.
    * (rms_norm_c2) the result has the type of `x`.
    * (rms_norm_c3) `gamma` has the element type of `x`.
    * (rms_norm_c4) `epsilon` is finite and not negative.

    ```mlir
    %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32}
        : (tensor<?x2048xbf16>, tensor<2048xbf16>) -> tensor<?x2048xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, F32Attr:$epsilon);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LayerNormOp
//===----------------------------------------------------------------------===//

def Coda_LayerNormOp : Coda_Op<"layer_norm"> {
  let summary = "layer normalization of each row";
  let description = [{
    Computes `y = (x − μ) · rsqrt(σ² + epsilon) · gamma + beta` per row, with
    the biased variance as PyTorch does, the statistics in f32.

    Constraints:
    * (layer_norm_c1) `gamma` and `beta` have `D = dim(x, 1)` elements.
    * (layer_norm_c2) the result has the type of `x`.
    * (layer_norm_c3) `gamma` and `beta` have the element type of `x`.
    * (layer_norm_c4) `epsilon` is finite and not negative.

    ```mlir
    %h = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32}
        : (tensor<?x768xf32>, tensor<768xf32>, tensor<768xf32>)
        -> tensor<?x768xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, Coda_Vector:$beta,
                       F32Attr:$epsilon);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

class Coda_BroadcastBinaryOp<string mnemonic, string formula>
    : Coda_Op<mnemonic> {
  let summary = "elementwise " # formula # ", a vector operand broadcast over rows";
  let description = [{
    Computes `y = }] # formula # [{` elementwise. `a` is `[M, N]`; `b` is
    `[M, N]`, a vector `[N]` that applies to every row (gamma, a bias), or a
    column `[M, 1]` that applies to every column (a per-row statistic).

    Constraints:
    * (}] # mnemonic # [{_c1) `b` is `[M, N]`, `[N]` or `[M, 1]`, with
      `[M, N]` the shape of `a`.
    * (}] # mnemonic # [{_c2) the result has the type of `a`.
    * (}] # mnemonic # [{_c3) `b` has the element type of `a`.

    ```mlir
    %y = coda.}] # mnemonic # [{ %a, %b
        : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$a, Coda_MatrixOrVector:$b);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

def Coda_AddOp : Coda_BroadcastBinaryOp<"add", "a + b">;
def Coda_MulOp : Coda_BroadcastBinaryOp<"mul", "a · b">;

//===----------------------------------------------------------------------===//
// AddOuterOp
//===----------------------------------------------------------------------===//

def Coda_AddOuterOp : Coda_Op<"add_outer"> {
  let summary = "adds the outer product of a per-row and a per-column vector";
  let description = [{
    Computes `y[m, n] = a[m, n] + u[m, 0] · v[n]`: a rank-one update from a
    per-row column `u : [M, 1]` and a per-column vector `v : [N]`. The
    LayerNorm rewrite uses it for the mean correction `−(rstd · μ) · c`.

    Constraints:
    * (add_outer_c1) `u` is `[M, 1]` and `v` is `[N]`, with `[M, N]` the
      shape of `a`.
    * (add_outer_c2) the result has the type of `a`.
    * (add_outer_c3) `u` and `v` have the element type of `a`.

    ```mlir
    %y = coda.add_outer %a, %u, %v
        : (tensor<?x64xf32>, tensor<?x1xf32>, tensor<64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$a, Coda_Matrix:$u, Coda_Vector:$v);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MulOuterOp
//===----------------------------------------------------------------------===//

def Coda_MulOuterOp : Coda_Op<"mul_outer"> {
  let summary = "scales by the outer product of a per-row and a per-column vector";
  let description = [{
    Computes `y[m, n] = a[m, n] · u[m, 0] · v[n]` in f32, rounded once: a
    row scale `u : [M, 1]` and a column scale `v : [N]`. A backward
    recomputes an RMSNorm whose row scales the forward saved as
    `mul_outer(x, rstd, gamma)`, which needs no row statistic and so can be
    one more result of an epilogue that reads `x`.

    Constraints:
    * (mul_outer_c1) `u` is `[M, 1]` and `v` is `[N]`, with `[M, N]` the
      shape of `a`.
    * (mul_outer_c2) the result has the type of `a`.
    * (mul_outer_c3) `v` has the element type of `a`; `u` may be f32, as
      the row statistics are.

    ```mlir
    %h = coda.mul_outer %x, %rstd, %gamma
        : (tensor<?x64xbf16>, tensor<?x1xf32>, tensor<64xbf16>) -> tensor<?x64xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$a, Coda_Matrix:$u, Coda_Vector:$v);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ScaleOp
//===----------------------------------------------------------------------===//

def Coda_ScaleOp : Coda_Op<"scale"> {
  let summary = "multiplication by a constant factor";
  let description = [{
    Computes `y = factor · x`.

    Constraints:
    * (scale_c1) the result has the type of `x`.
    * (scale_c2) `factor` is finite.

    Scaling by 1 folds to `x`.

    ```mlir
    %y = coda.scale %x {factor = 1.250000e-01 : f32}
        : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, F32Attr:$factor);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Unary activations
//===----------------------------------------------------------------------===//

class Coda_ActivationOp<string mnemonic, string formula,
                        dag extraArgs = (ins), string exampleAttrs = "">
    : Coda_Op<mnemonic> {
  let summary = "elementwise " # formula;
  let description = [{
    Computes `y = }] # formula # [{` elementwise.

    Constraints:
    * (}] # mnemonic # [{_c1) the result has the type of `x`.

    ```mlir
    %y = coda.}] # mnemonic # [{ %x}] # exampleAttrs # [{
        : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
    ```
  }];
  let arguments = !con((ins Coda_Matrix:$x), extraArgs);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

def Coda_SiLUOp : Coda_ActivationOp<"silu", "x · sigmoid(x)">;
def Coda_ReLUOp : Coda_ActivationOp<"relu", "max(x, 0)">;
def Coda_SigmoidOp : Coda_ActivationOp<"sigmoid", "1 / (1 + exp(−x))">;
def Coda_TanhOp : Coda_ActivationOp<"tanh", "tanh(x)">;
def Coda_GELUOp : Coda_ActivationOp<"gelu",
    "gelu(x), exact (erf) or tanh-approximated as torch.nn.functional.gelu",
    (ins Coda_StrEnumAttr<["none", "tanh"], "none">:$approximate),
    " {approximate = \"tanh\"}">;

//===----------------------------------------------------------------------===//
// SwiGLUOp
//===----------------------------------------------------------------------===//

def Coda_SwiGLUOp : Coda_Op<"swiglu"> {
  let summary = "gated linear unit with a SiLU gate";
  let description = [{
    Computes `y = silu(gate) · up` elementwise.

    Constraints:
    * (swiglu_c1) `gate` and `up` have the same shape and element type.
    * (swiglu_c2) the result has the type of `gate`.

    ```mlir
    %y = coda.swiglu %g, %u
        : (tensor<?x8192xbf16>, tensor<?x8192xbf16>) -> tensor<?x8192xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$gate, Coda_Matrix:$up);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RoPEOp
//===----------------------------------------------------------------------===//

def Coda_RoPEOp : Coda_Op<"rope"> {
  let summary = "rotary position embedding applied per head";
  let description = [{
    Rotates feature pairs of every head of `x : [M, H·d]` by the angles whose
    cosines and sines are `cos, sin : [M, d/2]`. With `style = "half"` the
    pair is `(x[i], x[i + d/2])` (Hugging Face `rotate_half`); with
    `style = "interleaved"` it is `(x[2i], x[2i + 1])`. For a pair
    `(x₁, x₂)` and angle index `i`: `out₁ = x₁ cos − x₂ sin`,
    `out₂ = x₂ cos + x₁ sin`.

    Constraints:
    * (rope_c1) `head_dim` is positive and even.
    * (rope_c2) `head_dim` divides the width of `x`.
    * (rope_c3) `cos` and `sin` are `[M, head_dim / 2]`, rows as `x`.
    * (rope_c4) the result has the type of `x`.

    ```mlir
    %q = coda.rope %x, %cos, %sin {head_dim = 64 : i64, style = "half"}
        : (tensor<?x2048xbf16>, tensor<?x32xf32>, tensor<?x32xf32>)
        -> tensor<?x2048xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_F32Matrix:$cos,
                       Coda_F32Matrix:$sin, I64Attr:$head_dim,
                       Coda_StrEnumAttr<["half", "interleaved"], "half">:$style);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

def Coda_SliceOp : Coda_Op<"slice"> {
  let summary = "a contiguous range of columns";
  let description = [{
    Returns columns `[offset, offset + size)` of `x`.

    Constraints:
    * (slice_c1) `offset >= 0`, `size > 0` and `offset + size <= dim(x, 1)`.
    * (slice_c2) the result is `[M, size]` with the element type of `x`.

    A slice of the whole width folds to `x`; a slice of a slice folds into one.

    ```mlir
    %q = coda.slice %qkv {offset = 0 : i64, size = 2048 : i64}
        : (tensor<?x3072xbf16>) -> tensor<?x2048xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, I64Attr:$offset, I64Attr:$size);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

def Coda_ConcatOp : Coda_Op<"concat"> {
  let summary = "matrices placed side by side along the columns";
  let description = [{
    Returns `[x₁ | x₂ | ...]`: the columns of each input in order.

    Constraints:
    * (concat_c1) there is at least one input.
    * (concat_c2) all inputs share the element type and the row count.
    * (concat_c3) the result has the rows of the inputs and the sum of their
      widths.

    A concat of one input folds to it; adjacent slices of one value that
    touch are merged, so a concat of slices that rebuild their source is the
    source.

    ```mlir
    %y = coda.concat %a, %b
        : (tensor<?x2048xbf16>, tensor<?x1024xbf16>) -> tensor<?x3072xbf16>
    ```
  }];
  let arguments = (ins Variadic<Coda_Matrix>:$inputs);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// CrossEntropyOp
//===----------------------------------------------------------------------===//

def Coda_LogSumExpOp : Coda_Op<"log_sum_exp"> {
  let summary = "the log-sum-exp of each row";
  let description = [{
    Computes `log Σ_n exp(x[m, n])` per row in f32, as `[M, 1]` f32: the
    statistic a training pair saves for the gradient of a cross-entropy, so
    that the backward has the softmax as `exp(logits − lse)` without the
    forward storing the logits. Over a GEMM's output it is computed from
    per-tile partials in the GEMM's epilogue.

    Constraints:
    * (log_sum_exp_c1) the result is `tensor<M x 1 x f32>`, rows as `x`.

    ```mlir
    %lse = coda.log_sum_exp %logits
        : (tensor<?x32768xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x);
  let results = (outs Coda_F32Matrix:$result);
  let hasVerifier = 1;
}

def Coda_CrossEntropyOp : Coda_Op<"cross_entropy"> {
  let summary = "softmax cross-entropy of logits against class indices";
  let description = [{
    Computes `torch.nn.functional.cross_entropy(logits, targets)`: per row
    `logsumexp(logits[m, :]) − logits[m, targets[m]]`, rows whose target is
    `ignore_index` contributing 0. `reduction = "mean"` divides the sum by
    the number of rows not ignored, `"sum"` returns the sum, `"none"` the
    per-row losses.

    Constraints:
    * (cross_entropy_c1) `targets` has one element per row of `logits`.
    * (cross_entropy_c2) the result is `tensor<f32>` for `"mean"` and `"sum"`,
      and `tensor<Mxf32>` for `"none"`.

    ```mlir
    %loss = coda.cross_entropy %logits, %t {reduction = "mean"}
        : (tensor<?x32768xbf16>, tensor<?xi64>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Coda_Matrix:$logits, Coda_Targets:$targets,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
                       Coda_StrEnumAttr<["mean", "sum", "none"], "mean">:$reduction);
  let results = (outs Coda_Loss:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

def Coda_AttentionOp : Coda_Op<"attention"> {
  let summary = "scaled dot-product attention, a boundary of fusion";
  let description = [{
    Scaled dot-product attention with grouped query heads over consecutive
    sequences of `seq_len` rows: query head `h` attends with key/value head
    `h / (num_heads / num_kv_heads)`, scores scaled by `1 / sqrt(head_dim)`,
    masked causally when `causal` is set. The compiler never fuses across this
    op: the launch plan calls an attention kernel the caller provides.

    Constraints:
    * (attention_c1) `num_heads`, `num_kv_heads`, `head_dim` and `seq_len` are
      positive and `num_kv_heads` divides `num_heads`.
    * (attention_c2) `q` is `[M, num_heads · head_dim]`; `k` and `v` are
      `[M, num_kv_heads · head_dim]`, all with the same rows.
    * (attention_c3) `q`, `k` and `v` share one element type; the result has
      the type of `q`.
    * (attention_c4) a static row count is a multiple of `seq_len`.

    ```mlir
    %o = coda.attention %q, %k, %v {num_heads = 32 : i64,
        num_kv_heads = 8 : i64, head_dim = 64 : i64, seq_len = 2048 : i64,
        causal = true}
        : (tensor<?x2048xbf16>, tensor<?x512xbf16>, tensor<?x512xbf16>)
        -> tensor<?x2048xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$q, Coda_Matrix:$k, Coda_Matrix:$v,
                       I64Attr:$num_heads, I64Attr:$num_kv_heads,
                       I64Attr:$head_dim, I64Attr:$seq_len, BoolAttr:$causal);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

include "coda/Dialect/Coda/IR/CodaEpilogueOps.td"
include "coda/Dialect/Coda/IR/CodaGradOps.td"

#endif // CODA_DIALECT_CODA_IR_CODAOPS_TD
