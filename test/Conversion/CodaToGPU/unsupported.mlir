// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu --verify-diagnostics

// Two weights in one mainloop (gate/up) are not generated yet.
func.func @two_weights(%h: tensor<?x64xbf16>, %wg: tensor<16x64xbf16>, %wu: tensor<16x64xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{the kernel generator takes one weight so far; this GEMM has 2}}
  %y = coda.gemm %h, [%wg, %wu] : (tensor<?x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// The backward layouts come with the dgrad and wgrad variants.
func.func @kn(%a: tensor<?x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{the kernel generator takes a_layout = "mk" and b_layout = "nk" so far; this GEMM has "mk" and "kn"}}
  %y = coda.gemm %a, [%b] {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<64x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// f32 operands are not tensor-core inputs here.
func.func @f32_operands(%a: tensor<?x64xf32>, %w: tensor<32x64xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{the kernel generator takes bf16 or f16 operands, got 'f32'}}
  %y = coda.gemm %a, [%w] : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}

// -----

// Results are [M, N] tiles: a per-column vector is not stored.
func.func @vector_result(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %b: tensor<32xbf16>) -> tensor<32xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<32xf32>' is not an [M, 32] tile or the partials of a row reduction}}
  %y = coda.gemm %a, [%w] inputs(%b) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<32xf32> {
  ^bb0(%acc: tensor<?x32xf32>, %bias: tensor<32xf32>):
    coda.yield %bias : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}

// -----

// Block maxima and log-sum-exps (the LM head) are not generated yet.
func.func @partials(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<?x?xf32> {
  %y = coda.gemm %a, [%w] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x32xf32>):
    // expected-error @+1 {{partial reductions of kind "lse" are not supported by the kernel generator yet}}
    %p = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x32xf32>) -> tensor<?x?xf32>
    coda.yield %p : tensor<?x?xf32>
  }
  return %y : tensor<?x?xf32>
}

// -----

// Pairwise ops (RoPE, SwiGLU on column ranges) are reported on the op.
func.func @rope(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %c: tensor<?x4xf32>, %s: tensor<?x4xf32>) -> tensor<?x32xbf16> {
  %y = coda.gemm %a, [%w] inputs(%c, %s) : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %cos: tensor<?x4xf32>, %sin: tensor<?x4xf32>):
    // expected-error @+1 {{'coda.rope' in an epilogue is not supported by the kernel generator yet}}
    %r = coda.rope %acc, %cos, %sin {head_dim = 8 : i64} : (tensor<?x32xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x32xf32>
    coda.yield %r : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// Accumulating into an input comes with the backward kernels.
func.func @accumulate(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{accumulating results into inputs is not supported by the kernel generator yet}}
  %y = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// Log-sum-exp partials are finished on the GPU later.
func.func @finish_lse(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{the kernel generator finishes partials of kind "sum" and "rstd" so far, not "lse"}}
  %r = coda.reduce_partials %p {kind = "lse"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// Partials must come from a GEMM's epilogue, which fixes their count.
func.func @finish_argument(%p: tensor<?x?xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{the kernel generator finishes partials stored by a GEMM's epilogue; these come from elsewhere}}
  %r = coda.reduce_partials %p {kind = "sum"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}
