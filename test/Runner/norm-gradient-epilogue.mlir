// An RMSNorm's gradient in the epilogue of the dgrad that makes its dh, as
// the training pair's backward runs it: dx (with the residual gradient
// added) from the dgrad's tile and the saved x, and dgamma as per-16-row
// column sums of the epilogue (summed across the lanes that share columns)
// finished by a sum over the blocks. Widths of 200 and 136 are no tile
// multiples, and the row counts leave partial 16-row blocks and tiles.
//
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 130 --seed 2 --compare-with-unfused | FileCheck %s --check-prefix=BF16-130
// RUN: coda-opt %s --coda-gpu-fuse-pipeline | FileCheck %s --check-prefix=GPU

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x200xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #1 tensor<200xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-130:      #0 tensor<130x200xbf16> {{.*}} ok{{$}}
// BF16-130-NEXT: #1 tensor<200xbf16> {{.*}} ok{{$}}

// GPU-LABEL: func.func @bf16(
//       GPU:   coda.gemm
//       GPU:     coda.partial_sum_rows
//       GPU:   coda.sum_rows

func.func @bf16(%x: tensor<?x200xbf16>, %g: tensor<200xbf16>, %dz: tensor<?x136xbf16>, %w: tensor<136x200xbf16>, %s: tensor<?x1xf32>, %res: tensor<?x200xbf16>) -> (tensor<?x200xbf16>, tensor<200xbf16>) {
  %dh = coda.matmul %dz, %w : (tensor<?x136xbf16>, tensor<136x200xbf16>) -> tensor<?x200xbf16>
  %dx, %dg = coda.rms_norm_grad %x, %g, %dh row_dot %s {epsilon = 1.0e-05 : f32} : (tensor<?x200xbf16>, tensor<200xbf16>, tensor<?x200xbf16>, tensor<?x1xf32>) -> (tensor<?x200xbf16>, tensor<200xbf16>)
  %total = coda.add %res, %dx : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  return %total, %dg : tensor<?x200xbf16>, tensor<200xbf16>
}
