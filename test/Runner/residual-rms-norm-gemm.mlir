// Residual + RMSNorm + GEMM: x1 = x0 + y Woᵀ; h = rms_norm(x1); z = h Wᵀ;
// returns x1 and z. The O-projection's epilogue adds the residual, stores x1,
// the partial sums of squares and h = x1 · gamma; the next GEMM scales its
// accumulator by rstd. The fused program must match the unfused one.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 2 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 3 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NEXT:   #1 tensor<37x96xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:      #0 tensor<200x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-200-NEXT: #1 tensor<200x96xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x64xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #1 tensor<37x96xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:      #0 tensor<129x64xbf16> {{.*}} ok{{$}}
// BF16-129-NEXT: #1 tensor<129x96xbf16> {{.*}} ok{{$}}

// Two GEMMs, one reduction kernel between them; no norm left.
// FUSED-LABEL: func.func @f32(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}, %{{.+}}) : {{.*}} -> (tensor<?x64xf32>, tensor<?x?xf32>, tensor<?x64xf32>)
//       FUSED:     coda.add
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"}
//       FUSED:     coda.mul
//       FUSED:   %[[R:.+]] = coda.reduce_partials %[[K1]]#1 {{.*}}kind = "rstd"
//       FUSED:   %[[Z:.+]] = coda.gemm %[[K1]]#2, [%{{.+}}] inputs(%[[R]])
//       FUSED:     coda.mul
//       FUSED:   return %[[K1]]#0, %[[Z]]
// FUSED-LABEL: func.func @bf16(
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}, %{{.+}}) : {{.*}} -> (tensor<?x64xbf16>, tensor<?x?xf32>, tensor<?x64xbf16>)
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"}
//       FUSED:   %[[R:.+]] = coda.reduce_partials %[[K1]]#1 {{.*}}kind = "rstd"
//       FUSED:   %[[Z:.+]] = coda.gemm %[[K1]]#2, [%{{.+}}] inputs(%[[R]])
//       FUSED:   return %[[K1]]#0, %[[Z]]

// The statistics come from the O-projection's epilogue: no norm, no linear
// and no standalone statistics kernel are left.
// GONE:     module
// GONE-NOT: coda.rms_norm
// GONE-NOT: coda.linear
// GONE-NOT: coda.norm_statistics

func.func @f32(%x0: tensor<?x64xf32>, %y: tensor<?x64xf32>, %wo: tensor<64x64xf32>,
               %g: tensor<64xf32>, %w: tensor<96x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x96xf32>) {
  %o = coda.linear %y, %wo : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %x1 = coda.add %x0, %o : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %h = coda.rms_norm %x1, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %z = coda.linear %h, %w : (tensor<?x64xf32>, tensor<96x64xf32>) -> tensor<?x96xf32>
  return %x1, %z : tensor<?x64xf32>, tensor<?x96xf32>
}

func.func @bf16(%x0: tensor<?x64xbf16>, %y: tensor<?x64xbf16>, %wo: tensor<64x64xbf16>,
                %g: tensor<64xbf16>, %w: tensor<96x64xbf16>)
    -> (tensor<?x64xbf16>, tensor<?x96xbf16>) {
  %o = coda.linear %y, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %h = coda.rms_norm %x1, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %z = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<96x64xbf16>) -> tensor<?x96xbf16>
  return %x1, %z : tensor<?x64xbf16>, tensor<?x96xbf16>
}
