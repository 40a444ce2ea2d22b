// Row log-sum-exps and maxima of a linear's output from per-tile partials
// (the statistic an LM head's forward saves for its backward), over 300
// columns so the last 128-column tile is partial. Written at the epilogue
// level; on the GPU the partials come from the GEMM's epilogue and a
// reduction kernel finishes them (bench/coda_run_cuda_check.sh runs it
// against the CPU reference).
//
// RUN: coda-run %s --entry lse --rows 77 --seed 4 --compare-with-unfused | FileCheck %s
// RUN: coda-run %s --entry lse_wide --rows 3 --seed 4 --compare-with-unfused | FileCheck %s --check-prefix=WIDE

// CHECK:      @lse: fused vs unfused, both against the unfused program in f64
// CHECK:        #0 tensor<77x1xf32> {{.*}} ok{{$}}
// CHECK:        #1 tensor<77x1xf32> {{.*}} ok{{$}}
func.func @lse(%h: tensor<?x64xbf16>, %w: tensor<300x64xbf16>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %p:2 = coda.gemm %h, [%w] : (tensor<?x64xbf16>, tensor<300x64xbf16>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x300xf32>):
    %l = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x300xf32>) -> tensor<?x?xf32>
    %m = coda.partial_reduce %acc {kind = "max"} : (tensor<?x300xf32>) -> tensor<?x?xf32>
    coda.yield %l, %m : tensor<?x?xf32>, tensor<?x?xf32>
  }
  %r = coda.reduce_partials %p#0 {kind = "lse"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %s = coda.reduce_partials %p#1 {kind = "max"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r, %s : tensor<?x1xf32>, tensor<?x1xf32>
}

// 140000 columns: 1094 partials per row, more than a warp's 32 lanes take
// in one batch of 32 steps each, so the reduction kernel runs its batches
// in a loop (reduce-kernel-sum.mlir).
// WIDE:      @lse_wide: fused vs unfused, both against the unfused program in f64
// WIDE:        #0 tensor<3x1xf32> {{.*}} ok{{$}}
// WIDE:        #1 tensor<3x1xf32> {{.*}} ok{{$}}
func.func @lse_wide(%h: tensor<?x64xbf16>, %w: tensor<140000x64xbf16>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %p:2 = coda.gemm %h, [%w] : (tensor<?x64xbf16>, tensor<140000x64xbf16>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x140000xf32>):
    %l = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x140000xf32>) -> tensor<?x?xf32>
    %m = coda.partial_reduce %acc {kind = "max"} : (tensor<?x140000xf32>) -> tensor<?x?xf32>
    coda.yield %l, %m : tensor<?x?xf32>, tensor<?x?xf32>
  }
  %r = coda.reduce_partials %p#0 {kind = "lse"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %s = coda.reduce_partials %p#1 {kind = "max"} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r, %s : tensor<?x1xf32>, tensor<?x1xf32>
}
