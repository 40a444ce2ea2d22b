//===- CodaGradOps.td - coda gradient operations -----------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops coda-generate-backward writes into backward functions: the
// gradients of the graph-level ops that other graph ops cannot express
// without rounding their f32 intermediates (row statistics, the softmax of
// the loss, an activation's derivative), and the two reductions over rows
// that weight and vector gradients need. Like every coda op they compute in f32 and round once.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODAGRADOPS_TD
#define CODA_DIALECT_CODA_IR_CODAGRADOPS_TD

include "coda/Dialect/Coda/IR/CodaBase.td"

def Coda_TransposedMatmulOp : Coda_Op<"transposed_matmul"> {
  let summary = "aᵀ b, a product that reduces over the rows";
  let description = [{
    Computes `y = aᵀ b` with `a : [M, N]` and `b : [M, K]`, the sum over the
    rows of the outer products `a[m, :]ᵀ b[m, :]`, accumulating in f32: the
    weight gradient `dW = dyᵀ x` of a linear, and `aᵀ dy` of a matmul.

    Constraints:
    * (transposed_matmul_c1) `a` and `b` have the same rows.
    * (transposed_matmul_c2) the result is `[N, K]`, static.

    The element types may differ, as for `coda.linear`: an f32 cotangent of
    a bf16 product, say, or an f32 product of bf16 operands.

    ```mlir
    %dw = coda.transposed_matmul %dy, %x
        : (tensor<?x512xbf16>, tensor<?x2048xbf16>) -> tensor<512x2048xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$a, Coda_Matrix:$b);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

def Coda_SumRowsOp : Coda_Op<"sum_rows"> {
  let summary = "the sum over the rows: one value per column";
  let description = [{
    Computes `y[n] = Σ_m x[m, n]` in f32, rounded to the result's element
    type: the gradient of a vector broadcast over rows (a bias, gamma).

    Constraints:
    * (sum_rows_c1) the result is `[N]` with `N = dim(x, 1)`.

    ```mlir
    %db = coda.sum_rows %dy : (tensor<?x512xbf16>) -> tensor<512xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x);
  let results = (outs Coda_Vector:$result);
  let hasVerifier = 1;
}

def Coda_RMSNormGradOp
    : Coda_Op<"rms_norm_grad", [AttrSizedOperandSegments]> {
  let summary = "the gradients of coda.rms_norm";
  let description = [{
    For `y = rms_norm(x, gamma)` and its cotangent `dy`, with
    `r = rsqrt(mean(x²) + epsilon)` per row and `h = x · r · gamma`:
    `dx = r · gamma · dy − x · r² · mean(h · dy)` and
    `dgamma = Σ_rows dy · x · r`. Statistics in f32.

    `row_dot`, when present, is `Σ_j h_j · dy_j` of each row, `[M, 1]` f32,
    computed elsewhere: when `h` feeds only linears `z = h · Wᵀ`, whose
    cotangents make `dy = dz · W`, it is `Σ_j z_j · dz_j` (the z·dz
    identity), a partial reduction in the epilogue that produces `dz`. With
    it, `dx` needs no reduction over the row of `dy`, so the gradient can run
    in the epilogue of the GEMM that produces `dy`.

    `rstd`, when present, is `r` of each row, `[M, 1]` f32, as the forward
    computed it (the training pair saves it where the forward's epilogues
    make it anyway); with `row_dot` too, the gradient reads no statistic of
    `x` of its own. The GPU path's row kernel, which takes a gradient that
    stays out of every epilogue, computes both statistics in its one pass
    over the row and reads neither.

    Constraints:
    * (rms_norm_grad_c1) `gamma` has `D = dim(x, 1)` elements; `dy` has the
      shape of `x`.
    * (rms_norm_grad_c2) `dx` has the type of `x`; `dgamma` the type of
      `gamma`.
    * (rms_norm_grad_c3) `epsilon` is finite and not negative.
    * (rms_norm_grad_c4) `row_dot` and `rstd`, when present, are `[M, 1]`
      f32.

    ```mlir
    %dx, %dg = coda.rms_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32}
        : (tensor<?x2048xbf16>, tensor<2048xbf16>, tensor<?x2048xbf16>)
        -> (tensor<?x2048xbf16>, tensor<2048xbf16>)
    %dx2, %dg2 = coda.rms_norm_grad %x, %g, %dy row_dot %s rstd %r
        {epsilon = 1.0e-05 : f32}
        : (tensor<?x2048xbf16>, tensor<2048xbf16>, tensor<?x2048xbf16>,
           tensor<?x1xf32>, tensor<?x1xf32>)
        -> (tensor<?x2048xbf16>, tensor<2048xbf16>)
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, Coda_Matrix:$dy,
                       Optional<Coda_F32Matrix>:$row_dot,
                       Optional<Coda_F32Matrix>:$rstd, F32Attr:$epsilon);
  let assemblyFormat = [{
    $x `,` $gamma `,` $dy (`row_dot` $row_dot^)? (`rstd` $rstd^)? attr-dict
    `:` functional-type(operands, results)
  }];
  let results = (outs Coda_Matrix:$dx, Coda_Vector:$dgamma);
  let hasVerifier = 1;
}

def Coda_RMSNormGradPartialsOp : Coda_Op<"rms_norm_grad_partials"> {
  let summary = "coda.rms_norm_grad as a row kernel computes it";
  let description = [{
    The GPU form of `coda.rms_norm_grad`, which `coda-split-norm-gradients`
    writes: `dx` is the gradient of `coda.rms_norm_grad`, plus `residual`
    when present (the residual stream's gradient, accumulated where `dx` is
    made rather than in a kernel of its own), and `dgamma` is left as
    `partials : [P, D]` f32, each row the sum of `dy · x · r` over one block
    of the rows, so that `coda.sum_rows` of the partials is `dgamma`. `P`
    is the number of blocks the kernel runs, static, so the partials take
    `P · D · 4` bytes whatever the row count.

    Constraints:
    * (rms_norm_grad_partials_c1) `gamma` has `D = dim(x, 1)` elements;
      `dy`, `residual` and `dx` have the type of `x`.
    * (rms_norm_grad_partials_c2) `partials` is `[P, D]` f32 with `P`
      static and positive.
    * (rms_norm_grad_partials_c3) `epsilon` is finite and not negative.

    ```mlir
    %p, %dx = coda.rms_norm_grad_partials %x, %g, %dy, %dres
        {epsilon = 1.0e-05 : f32}
        : (tensor<?x2048xbf16>, tensor<2048xbf16>, tensor<?x2048xbf16>,
           tensor<?x2048xbf16>) -> (tensor<264x2048xf32>, tensor<?x2048xbf16>)
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, Coda_Matrix:$dy,
                       Optional<Coda_Matrix>:$residual, F32Attr:$epsilon);
  let results = (outs Coda_F32Matrix:$partials, Coda_Matrix:$dx);
  let hasVerifier = 1;
}

def Coda_LayerNormGradOp : Coda_Op<"layer_norm_grad"> {
  let summary = "the gradients of coda.layer_norm";
  let description = [{
    For `y = layer_norm(x, gamma, beta)` and its cotangent `dy`, with
    `x̂ = (x − μ) · r` and `g = gamma · dy` per row:
    `dx = r · (g − mean(g) − x̂ · mean(g · x̂))`,
    `dgamma = Σ_rows dy · x̂`, `dbeta = Σ_rows dy`. Statistics in f32.

    Constraints:
    * (layer_norm_grad_c1) `gamma` has `D = dim(x, 1)` elements; `dy` has
      the shape of `x`.
    * (layer_norm_grad_c2) `dx` has the type of `x`; `dgamma` and `dbeta`
      the type of `gamma`.
    * (layer_norm_grad_c3) `epsilon` is finite and not negative.

    ```mlir
    %dx, %dg, %db = coda.layer_norm_grad %x, %g, %dy {epsilon = 1.0e-05 : f32}
        : (tensor<?x768xf32>, tensor<768xf32>, tensor<?x768xf32>)
        -> (tensor<?x768xf32>, tensor<768xf32>, tensor<768xf32>)
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, Coda_Matrix:$dy,
                       F32Attr:$epsilon);
  let results = (outs Coda_Matrix:$dx, Coda_Vector:$dgamma,
                      Coda_Vector:$dbeta);
  let hasVerifier = 1;
}

def Coda_LayerNormGradPartialsOp : Coda_Op<"layer_norm_grad_partials"> {
  let summary = "coda.layer_norm_grad as a row kernel computes it";
  let description = [{
    The GPU form of `coda.layer_norm_grad`, which `coda-split-norm-gradients`
    writes, as `coda.rms_norm_grad_partials` is that of `coda.rms_norm_grad`:
    `dx` is the gradient of `coda.layer_norm_grad`, plus `residual` when
    present, and `dgamma` and `dbeta` are left as `gamma_partials` and
    `beta_partials : [P, D]` f32, each row the sum of `dy · x̂` and of `dy`
    over one block of the rows, so that `coda.sum_rows` of each is the
    gradient. `P` is static.

    Constraints:
    * (layer_norm_grad_partials_c1) `gamma` has `D = dim(x, 1)` elements;
      `dy`, `residual` and `dx` have the type of `x`.
    * (layer_norm_grad_partials_c2) `gamma_partials` and `beta_partials`
      are `[P, D]` f32 with `P` static and positive, the same for both.
    * (layer_norm_grad_partials_c3) `epsilon` is finite and not negative.

    ```mlir
    %pg, %pb, %dx = coda.layer_norm_grad_partials %x, %g, %dy, %dres
        {epsilon = 1.0e-05 : f32}
        : (tensor<?x768xbf16>, tensor<768xbf16>, tensor<?x768xbf16>,
           tensor<?x768xbf16>)
        -> (tensor<1056x768xf32>, tensor<1056x768xf32>, tensor<?x768xbf16>)
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Vector:$gamma, Coda_Matrix:$dy,
                       Optional<Coda_Matrix>:$residual, F32Attr:$epsilon);
  let results = (outs Coda_F32Matrix:$gamma_partials,
                      Coda_F32Matrix:$beta_partials, Coda_Matrix:$dx);
  let hasVerifier = 1;
}

def Coda_ActivationGradOp : Coda_Op<"activation_grad"> {
  let summary = "dy times the derivative of an activation at x";
  let description = [{
    Computes `dx = dy · f'(x)` elementwise for the activation `f` that
    `activation` names: `"silu"` (`s · (1 + x · (1 − s))`, `s = sigmoid(x)`),
    `"relu"` (1 where `x > 0`, else 0), `"sigmoid"` (`s · (1 − s)`),
    `"tanh"` (`1 − tanh²(x)`), `"gelu"` (exact, `Φ(x) + x · φ(x)`) and
    `"gelu_tanh"` (the derivative of the tanh approximation), as PyTorch
    computes them.

    Constraints:
    * (activation_grad_c1) `dy` and the result have the type of `x`.

    ```mlir
    %dx = coda.activation_grad %x, %dy {activation = "silu"}
        : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$x, Coda_Matrix:$dy,
                       Coda_StrEnumAttr<["silu", "relu", "sigmoid", "tanh",
                                         "gelu", "gelu_tanh"], "silu">:$activation);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

def Coda_CrossEntropyGradOp : Coda_Op<"cross_entropy_grad"> {
  let summary = "the gradient of coda.cross_entropy with respect to the logits";
  let description = [{
    For `loss = cross_entropy(logits, targets)` and its cotangent `dloss`:
    per row `(softmax(logits[m, :]) − onehot(targets[m])) · w[m]`, with
    `w[m] = dloss` for `"sum"`, `dloss / (rows not ignored)` for `"mean"`,
    `dloss[m]` for `"none"`, and 0 on rows whose target is `ignore_index`.
    With `lse`, the rows' log-sum-exps that the forward saved
    (`coda.log_sum_exp`), the softmax is `exp(logits − lse)` and needs no
    pass over the row for its maximum and sum.

    Constraints:
    * (cross_entropy_grad_c1) `targets` has one element per row of
      `logits`; `dloss` is `tensor<f32>` for `"mean"` and `"sum"` and
      `tensor<Mxf32>` for `"none"`; `lse`, when present, is `[M, 1]`.
    * (cross_entropy_grad_c2) the result has the type of `logits`.

    ```mlir
    %dlogits = coda.cross_entropy_grad %logits, %t, %dloss {reduction = "mean"}
        : (tensor<?x32768xbf16>, tensor<?xi64>, tensor<f32>)
        -> tensor<?x32768xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$logits, Coda_Targets:$targets,
                       Coda_Loss:$dloss, Optional<Coda_F32Matrix>:$lse,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
                       Coda_StrEnumAttr<["mean", "sum", "none"], "mean">:$reduction);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

def Coda_CrossEntropyRowWeightsOp : Coda_Op<"cross_entropy_row_weights"> {
  let summary = "each row's weight in the gradient of coda.cross_entropy";
  let description = [{
    The factor `w[m]` of row m in the gradient of
    `loss = cross_entropy(logits, targets)` for the cotangent `dloss`:
    `dloss` for `"sum"`, `dloss / (rows not ignored)` for `"mean"`,
    `dloss[m]` for `"none"`, and 0 on rows whose target is `ignore_index`,
    as `[M, 1]` f32. Only `"mean"` needs all the rows (their count); the
    gradient itself is then tile-local (`coda.softmax_target_grad`).

    Constraints:
    * (cross_entropy_row_weights_c1) `dloss` is `tensor<f32>` for `"mean"`
      and `"sum"` and `tensor<Mxf32>` for `"none"`, M the targets' count.
    * (cross_entropy_row_weights_c2) the result is `[M, 1]` f32.

    ```mlir
    %w = coda.cross_entropy_row_weights %t, %dloss {reduction = "mean"}
        : (tensor<?xi64>, tensor<f32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Coda_Targets:$targets, Coda_Loss:$dloss,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
                       Coda_StrEnumAttr<["mean", "sum", "none"], "mean">:$reduction);
  let results = (outs Coda_F32Matrix:$weights);
  let hasVerifier = 1;
}

def Coda_SoftmaxTargetGradOp : Coda_Op<"softmax_target_grad"> {
  let summary = "the cross-entropy gradient of each logit from its row's "
                "log-sum-exp, target and weight";
  let description = [{
    Per element `w[m] · (exp(logits[m, j] − lse[m]) − [j = targets[m]])`:
    the gradient of a cross-entropy whose log-sum-exps the forward saved,
    with the row weights of `coda.cross_entropy_row_weights`. Each element
    needs only its row's three values and its column, so the op is
    tile-local: the GEMM that recomputes the logits computes it in its
    epilogue, and the logits' gradient is never read back. The result has
    the logits' shape and any float element type (the products that read
    it take bf16); the value is rounded once.

    Constraints:
    * (softmax_target_grad_c1) `lse` and `weights` are `[M, 1]` f32 and
      `targets` has M elements, M the logits' rows.
    * (softmax_target_grad_c2) the result has the logits' shape.

    ```mlir
    %d = coda.softmax_target_grad %logits, %lse, %w, %t
        : (tensor<?x32768xf32>, tensor<?x1xf32>, tensor<?x1xf32>,
           tensor<?xi64>) -> tensor<?x32768xbf16>
    ```
  }];
  let arguments = (ins Coda_Matrix:$logits, Coda_F32Matrix:$lse,
                       Coda_F32Matrix:$weights, Coda_Targets:$targets);
  let results = (outs Coda_Matrix:$result);
  let hasVerifier = 1;
}

#endif // CODA_DIALECT_CODA_IR_CODAGRADOPS_TD
