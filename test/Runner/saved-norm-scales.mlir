// An RMSNorm from its saved row scales, y = x · rstd · gamma
// (coda.mul_outer), as a training pair's backward recomputes it for a
// weight gradient. @standalone is one elementwise kernel (rstd in f32,
// gamma in bf16, rounded once); @after_gemm scales a GEMM's result in its
// epilogue; @beside_gradient is the backward's shape: a dgrad whose
// epilogue reads x makes the normalized rows as one more result (the GPU
// pipeline's coda-recompute-in-epilogues), and the weight gradient that
// reads them, written before the dgrad, follows it. Widths of 200 and 72
// are no tile multiples.
//
// RUN: coda-run %s --entry standalone --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=STANDALONE
// RUN: coda-run %s --entry after_gemm --rows 130 --seed 2 --compare-with-unfused | FileCheck %s --check-prefix=AFTER
// RUN: coda-run %s --entry beside_gradient --rows 45 --seed 3 --compare-with-unfused | FileCheck %s --check-prefix=BESIDE
// RUN: coda-opt %s --coda-gpu-fuse-pipeline | FileCheck %s --check-prefix=GPU

// STANDALONE:      @standalone: fused vs unfused, both against the unfused program in f64
// STANDALONE-NEXT:   result type fused error unfused error limit
// STANDALONE-NEXT:   #0 tensor<37x200xbf16> {{.*}} ok{{$}}

// AFTER:      #0 tensor<130x200xbf16> {{.*}} ok{{$}}

// BESIDE:      @beside_gradient: fused vs unfused, both against the unfused program in f64
// BESIDE-NEXT:   result type fused error unfused error limit
// BESIDE-NEXT:   #0 tensor<45x200xbf16> {{.*}} ok{{$}}
// BESIDE-NEXT:   #1 tensor<72x200xbf16> {{.*}} ok{{$}}

// GPU-LABEL: func.func @beside_gradient(
//  GPU-SAME:   %[[DY:[^:]+]]: tensor<?x72xbf16>, %[[W:[^:]+]]: tensor<72x200xbf16>, %[[X:[^:]+]]: tensor<?x200xbf16>, %[[R:[^:]+]]: tensor<?x1xf32>, %[[G:[^:]+]]: tensor<200xbf16>)
//   GPU-NOT:   coda.mul_outer %[[X]]
//       GPU:   %[[D:.+]]:2 = coda.gemm %[[DY]], [%[[W]]] inputs(%[[X]], %[[R]], %[[G]])
//       GPU:     coda.mul_outer
//       GPU:   %[[DW:.+]] = coda.gemm %[[DY]], [%[[D]]#1] {a_layout = "km", b_layout = "kn"}
//       GPU:   return %[[D]]#0, %[[DW]]

func.func @standalone(%x: tensor<?x200xbf16>, %rstd: tensor<?x1xf32>, %gamma: tensor<200xbf16>) -> tensor<?x200xbf16> {
  %h = coda.mul_outer %x, %rstd, %gamma : (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<200xbf16>) -> tensor<?x200xbf16>
  return %h : tensor<?x200xbf16>
}

func.func @after_gemm(%a: tensor<?x72xbf16>, %w: tensor<200x72xbf16>, %rstd: tensor<?x1xf32>, %gamma: tensor<200xbf16>) -> tensor<?x200xbf16> {
  %y = coda.linear %a, %w : (tensor<?x72xbf16>, tensor<200x72xbf16>) -> tensor<?x200xbf16>
  %h = coda.mul_outer %y, %rstd, %gamma : (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<200xbf16>) -> tensor<?x200xbf16>
  return %h : tensor<?x200xbf16>
}

func.func @beside_gradient(%dy: tensor<?x72xbf16>, %w: tensor<72x200xbf16>, %x: tensor<?x200xbf16>, %rstd: tensor<?x1xf32>, %gamma: tensor<200xbf16>) -> (tensor<?x200xbf16>, tensor<72x200xbf16>) {
  %h = coda.mul_outer %x, %rstd, %gamma : (tensor<?x200xbf16>, tensor<?x1xf32>, tensor<200xbf16>) -> tensor<?x200xbf16>
  %dw = coda.transposed_matmul %dy, %h : (tensor<?x72xbf16>, tensor<?x200xbf16>) -> tensor<72x200xbf16>
  %p = coda.matmul %dy, %w : (tensor<?x72xbf16>, tensor<72x200xbf16>) -> tensor<?x200xbf16>
  %dx = coda.add %p, %x : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  return %dx, %dw : tensor<?x200xbf16>, tensor<72x200xbf16>
}
