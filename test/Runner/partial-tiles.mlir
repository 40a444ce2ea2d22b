// Partial last tiles: the per-row partials (sums of squares of an RMSNorm,
// log-sum-exp and target logit of a cross-entropy) are per 128 columns; here
// the widths are not multiples of 128 (an RMSNorm over 200 columns, a vocab of
// 520), so the last tile of each row is partial.
//
// RUN: coda-run %s --entry f32_norm --rows 100 --seed 28 --compare-with-unfused | FileCheck %s --check-prefix=F32-NORM
// RUN: coda-run %s --entry bf16_norm --rows 100 --seed 28 --compare-with-unfused | FileCheck %s --check-prefix=BF16-NORM
// RUN: coda-run %s --entry f32_loss --rows 100 --seed 28 --compare-with-unfused | FileCheck %s --check-prefix=F32-LOSS
// RUN: coda-run %s --entry bf16_loss --rows 100 --seed 28 --compare-with-unfused | FileCheck %s --check-prefix=BF16-LOSS
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32-NORM:      @f32_norm: fused vs unfused, both against the unfused program in f64
// F32-NORM-NEXT:   result type fused error unfused error limit
// F32-NORM-NEXT:   #0 tensor<100x200xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NORM-NEXT:   #1 tensor<100x96xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NORM-NOT:  {{.}}

// BF16-NORM:      @bf16_norm: fused vs unfused, both against the unfused program in f64
// BF16-NORM-NEXT:   result type fused error unfused error limit
// BF16-NORM-NEXT:   #0 tensor<100x200xbf16> {{.*}} ok{{$}}
// BF16-NORM-NEXT:   #1 tensor<100x96xbf16> {{.*}} ok{{$}}
// BF16-NORM-NOT:  {{.}}

// F32-LOSS:      @f32_loss: fused vs unfused, both against the unfused program in f64
// F32-LOSS-NEXT:   result type fused error unfused error limit
// F32-LOSS-NEXT:   #0 tensor<100xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-LOSS-NOT:  {{.}}

// BF16-LOSS:      @bf16_loss: fused vs unfused, both against the unfused program in f64
// BF16-LOSS-NEXT:   result type fused error unfused error limit
// BF16-LOSS-NEXT:   #0 tensor<100xf32> {{.*}} ok{{$}}
// BF16-LOSS-NOT:  {{.}}

// FUSED-LABEL: func.func @f32_norm(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"} : (tensor<?x200xf32>) -> tensor<?x?xf32>
//       FUSED:   coda.reduce_partials %[[K1]]#1 {count = 200 : i64, {{.*}}kind = "rstd"}
//       FUSED:   coda.gemm %[[K1]]#2
// FUSED-LABEL: func.func @bf16_norm(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"} : (tensor<?x200xf32>) -> tensor<?x?xf32>
//       FUSED:   coda.reduce_partials %[[K1]]#1 {count = 200 : i64, {{.*}}kind = "rstd"}
//       FUSED:   coda.gemm %[[K1]]#2
// FUSED-LABEL: func.func @f32_loss(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"} : (tensor<?x520xf32>)
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]]
// FUSED-LABEL: func.func @bf16_loss(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"} : (tensor<?x520xf32>)
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]]

// Every norm after a GEMM and the f32 first-layer norm become statistics;
// the bf16 first-layer norm of @bf16_loss stays a norm.
// GONE:     module
// GONE-NOT: coda.rms_norm
// GONE-NOT: coda.linear
// GONE-NOT: coda.cross_entropy %
// GONE:     func.func @bf16_loss
// GONE:       coda.rms_norm {{.*}} -> tensor<?x64xbf16>
// GONE-NOT: coda.rms_norm
// GONE-NOT: coda.linear
// GONE-NOT: coda.cross_entropy %

func.func @f32_norm(%x0: tensor<?x200xf32>, %y: tensor<?x200xf32>, %wo: tensor<200x200xf32>,
                    %g: tensor<200xf32>, %w: tensor<96x200xf32>)
    -> (tensor<?x200xf32>, tensor<?x96xf32>) {
  %o = coda.linear %y, %wo : (tensor<?x200xf32>, tensor<200x200xf32>) -> tensor<?x200xf32>
  %x1 = coda.add %x0, %o : (tensor<?x200xf32>, tensor<?x200xf32>) -> tensor<?x200xf32>
  %h = coda.rms_norm %x1, %g {epsilon = 1.0e-05 : f32} : (tensor<?x200xf32>, tensor<200xf32>) -> tensor<?x200xf32>
  %z = coda.linear %h, %w : (tensor<?x200xf32>, tensor<96x200xf32>) -> tensor<?x96xf32>
  return %x1, %z : tensor<?x200xf32>, tensor<?x96xf32>
}

func.func @bf16_norm(%x0: tensor<?x200xbf16>, %y: tensor<?x200xbf16>, %wo: tensor<200x200xbf16>,
                     %g: tensor<200xbf16>, %w: tensor<96x200xbf16>)
    -> (tensor<?x200xbf16>, tensor<?x96xbf16>) {
  %o = coda.linear %y, %wo : (tensor<?x200xbf16>, tensor<200x200xbf16>) -> tensor<?x200xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  %h = coda.rms_norm %x1, %g {epsilon = 1.0e-05 : f32} : (tensor<?x200xbf16>, tensor<200xbf16>) -> tensor<?x200xbf16>
  %z = coda.linear %h, %w : (tensor<?x200xbf16>, tensor<96x200xbf16>) -> tensor<?x96xbf16>
  return %x1, %z : tensor<?x200xbf16>, tensor<?x96xbf16>
}

func.func @f32_loss(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<520x64xf32>,
                    %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<520x64xf32>) -> tensor<?x520xf32>
  %loss = coda.cross_entropy %logits, %targets {reduction = "none"} : (tensor<?x520xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

func.func @bf16_loss(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<520x64xbf16>,
                     %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<520x64xbf16>) -> tensor<?x520xf32>
  %loss = coda.cross_entropy %logits, %targets {reduction = "none"} : (tensor<?x520xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}
