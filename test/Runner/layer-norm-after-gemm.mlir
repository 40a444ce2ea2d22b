// LayerNorm after a GEMM: x = y Woᵀ; h = layer_norm(x); z = h Wᵀ + b. The
// O-projection's epilogue stores partial sums and sums of squares and
// h' = x · gamma (x itself is never stored); a small reduction gives mean and
// rstd; the second GEMM's epilogue applies rstd, the mean correction, beta Wᵀ
// and the bias.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 6 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 7 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x96xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:  #0 tensor<200x96xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x96xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:  #0 tensor<129x96xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x64xf32>)
//       FUSED:     coda.partial_reduce %{{.+}} :
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "centered_sum_squares"}
//       FUSED:     coda.mul
//       FUSED:   %[[MR:.+]]:2 = coda.reduce_partials %[[K1]]#0, %[[K1]]#1 {{.*}}kind = "mean_rstd"
//       FUSED:   %[[Z:.+]] = coda.gemm %[[K1]]#2, [%{{.+}}] inputs(%{{.+}}, %[[MR]]#1, %[[MR]]#0, %{{.+}}, %{{.+}})
//       FUSED:     coda.add_outer
//       FUSED:   return %[[Z]]
// FUSED-LABEL: func.func @bf16(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x64xbf16>)
//       FUSED:   %[[MR:.+]]:2 = coda.reduce_partials %[[K1]]#0, %[[K1]]#1 {{.*}}kind = "mean_rstd"
//       FUSED:   %[[Z:.+]] = coda.gemm %[[K1]]#2, [%{{.+}}] inputs(%{{.+}}, %[[MR]]#1, %[[MR]]#0, %{{.+}}, %{{.+}}) : {{.*}} -> tensor<?x96xbf16>
//       FUSED:     coda.add_outer
//       FUSED:   return %[[Z]]

// The statistics come from the first GEMM's epilogue: no standalone kernel.
// GONE:     module
// GONE-NOT: coda.layer_norm
// GONE-NOT: coda.linear
// GONE-NOT: coda.norm_statistics

func.func @f32(%y: tensor<?x64xf32>, %wo: tensor<64x64xf32>, %g: tensor<64xf32>,
               %beta: tensor<64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>)
    -> tensor<?x96xf32> {
  %x = coda.linear %y, %wo : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %z = coda.linear %h, %w, %b : (tensor<?x64xf32>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  return %z : tensor<?x96xf32>
}

func.func @bf16(%y: tensor<?x64xbf16>, %wo: tensor<64x64xbf16>, %g: tensor<64xbf16>,
                %beta: tensor<64xbf16>, %w: tensor<96x64xbf16>, %b: tensor<96xbf16>)
    -> tensor<?x96xbf16> {
  %x = coda.linear %y, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w, %b : (tensor<?x64xbf16>, tensor<96x64xbf16>, tensor<96xbf16>) -> tensor<?x96xbf16>
  return %z : tensor<?x96xbf16>
}
