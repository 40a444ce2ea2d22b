// LayerNorm + linear with bias, first layer (the norm's input is an
// argument): a standalone statistics kernel gives the centered
// (x − mean) · gamma and rstd; the GEMM's epilogue applies rstd, d = beta Wᵀ
// and the bias, with no mean correction to cancel.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 4 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 5 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
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
//       FUSED:   %[[ST:.+]]:3 = coda.norm_statistics %{{.+}}, %{{.+}} {{.*}}kind = "layer_norm"}
//       FUSED:   %[[Y:.+]] = coda.gemm %[[ST]]#0, [%{{.+}}] inputs(%{{.+}}, %[[ST]]#1, %{{.+}})
//       FUSED:     coda.mul
//   FUSED-NOT:     coda.add_outer
//       FUSED:     coda.add
//       FUSED:     coda.add
//       FUSED:   return %[[Y]]
// FUSED-LABEL: func.func @bf16(
//       FUSED:   %[[ST:.+]]:3 = coda.norm_statistics %{{.+}}, %{{.+}} {{.*}}kind = "layer_norm"}
//       FUSED:   %[[Y:.+]] = coda.gemm %[[ST]]#0, [%{{.+}}] inputs(%{{.+}}, %[[ST]]#1, %{{.+}}) : {{.*}} -> tensor<?x96xbf16>
//   FUSED-NOT:     coda.add_outer
//       FUSED:   return %[[Y]]

// GONE:     module
// GONE-NOT: coda.layer_norm
// GONE-NOT: coda.linear

func.func @f32(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>,
               %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<?x96xf32> {
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.linear %h, %w, %b : (tensor<?x64xf32>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  return %y : tensor<?x96xf32>
}
func.func @bf16(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %beta: tensor<64xbf16>,
               %w: tensor<96x64xbf16>, %b: tensor<96xbf16>) -> tensor<?x96xbf16> {
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.linear %h, %w, %b : (tensor<?x64xbf16>, tensor<96x64xbf16>, tensor<96xbf16>) -> tensor<?x96xbf16>
  return %y : tensor<?x96xbf16>
}
