// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// Block maxima and log-sum-exps of a GEMM's rows in its epilogue, over 300
// columns (the last tile holds 44): each thread keeps the maximum of its
// columns of a row (outside columns as -inf), the quad's four lanes take
// the maximum of theirs, and for the log-sum-exp a second pass sums
// exp(x - max) over the same values (approximate exp and log) into
// max + log(sum). The reduction kernels finish them: the maximum of the
// blocks' maxima, and max + log Σ exp(lse_j - max) of their log-sum-exps.
// CHECK-LABEL: gpu.func @lse_gemm0
//       CHECK:   arith.maximumf %cst{{.*}}, %{{.+}} : f32
//       CHECK:   gpu.shuffle  xor
//       CHECK:   arith.maximumf
//       CHECK:   math.exp %{{.+}} fastmath<afn> : f32
//       CHECK:   gpu.shuffle  xor
//       CHECK:   math.log %{{.+}} fastmath<afn> : f32
//       CHECK:   llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
//       CHECK:   gpu.shuffle  xor
//       CHECK:   arith.maximumf
//       CHECK:   llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
// The reductions that finish them: a warp per row, the lanes' maxima then
// their sums of exp(v - max), each combined across the lanes.
// CHECK-LABEL: gpu.func @lse_reduce0
//       CHECK:   arith.maximumf
//       CHECK:   gpu.shuffle  xor
//       CHECK:   arith.maximumf
//       CHECK:   math.exp
//       CHECK:   gpu.shuffle  xor
//       CHECK:   math.log
// CHECK-LABEL: gpu.func @lse_reduce1
//       CHECK:   arith.maximumf
//       CHECK:   gpu.shuffle  xor
//   CHECK-NOT:   math.log
//       CHECK:   gpu.return
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

// -----

// The LM head's epilogue: only partials, the tile's log-sum-exps and the
// target logits gathered from it (per row, the element at the row's target
// column when the tile holds it, else 0), the targets read once per row as
// i64. The logits are never stored.
// CHECK-LABEL: func.func @lm_head
//       CHECK:   coda.launch = {{{.*}}tiles_n = 2 : i64}
// CHECK-LABEL: gpu.func @lm_head_gemm0
//       CHECK:   llvm.load %{{.+}} : !llvm.ptr -> i64
//       CHECK:   arith.cmpi eq
//       CHECK:   math.exp
//       CHECK:   math.log
//       CHECK:   llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
//       CHECK:   llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
//   CHECK-NOT:   vector<2xf32>, !llvm.ptr
//       CHECK:   gpu.return
func.func @lm_head(%h: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %t: tensor<?xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %p:2 = coda.gemm %h, [%w] inputs(%t) : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<?xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x256xf32>, %targets: tensor<?xi64>):
    %l = coda.partial_reduce %acc {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    %g = coda.partial_gather %acc, %targets : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<?x?xf32>
    coda.yield %l, %g : tensor<?x?xf32>, tensor<?x?xf32>
  }
  return %p#0, %p#1 : tensor<?x?xf32>, tensor<?x?xf32>
}
