// GELU with bias: y = gelu(x Wᵀ + b), in the tanh and the erf ("none") form.
// The GEMM's epilogue adds the bias and applies the activation, keeping the
// form.
//
// RUN: coda-run %s --entry f32_tanh --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32-TANH
// RUN: coda-run %s --entry f32_none --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32-NONE
// RUN: coda-run %s --entry f32_tanh --rows 200 --seed 10 --compare-with-unfused | FileCheck %s --check-prefix=F32-TANH-200
// RUN: coda-run %s --entry f32_none --rows 200 --seed 10 --compare-with-unfused | FileCheck %s --check-prefix=F32-NONE-200
// RUN: coda-run %s --entry bf16_tanh --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16-TANH
// RUN: coda-run %s --entry bf16_none --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16-NONE
// RUN: coda-run %s --entry bf16_tanh --rows 129 --seed 11 --compare-with-unfused | FileCheck %s --check-prefix=BF16-TANH-129
// RUN: coda-run %s --entry bf16_none --rows 129 --seed 11 --compare-with-unfused | FileCheck %s --check-prefix=BF16-NONE-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32-TANH:      @f32_tanh: fused vs unfused, both against the unfused program in f64
// F32-TANH-NEXT:   result type fused error unfused error limit
// F32-TANH-NEXT:   #0 tensor<37x256xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-TANH-NOT:  {{.}}

// F32-NONE:      @f32_none: fused vs unfused, both against the unfused program in f64
// F32-NONE-NEXT:   result type fused error unfused error limit
// F32-NONE-NEXT:   #0 tensor<37x256xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NONE-NOT:  {{.}}

// F32-TANH-200:  #0 tensor<200x256xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-NONE-200:  #0 tensor<200x256xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16-TANH:      @bf16_tanh: fused vs unfused, both against the unfused program in f64
// BF16-TANH-NEXT:   result type fused error unfused error limit
// BF16-TANH-NEXT:   #0 tensor<37x256xbf16> {{.*}} ok{{$}}
// BF16-TANH-NOT:  {{.}}

// BF16-NONE:      @bf16_none: fused vs unfused, both against the unfused program in f64
// BF16-NONE-NEXT:   result type fused error unfused error limit
// BF16-NONE-NEXT:   #0 tensor<37x256xbf16> {{.*}} ok{{$}}
// BF16-NONE-NOT:  {{.}}

// BF16-TANH-129:  #0 tensor<129x256xbf16> {{.*}} ok{{$}}
// BF16-NONE-129:  #0 tensor<129x256xbf16> {{.*}} ok{{$}}

// Each function returns its GEMM, whose epilogue holds the bias add and the
// gelu in its form; the default form ("none") is elided when printed.
// FUSED-LABEL: func.func @f32_tanh(
//       FUSED:   %[[K:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> tensor<?x256xf32> {
//       FUSED:     %[[Y:.+]] = coda.add
//       FUSED:     %[[A:.+]] = coda.gelu %[[Y]] {approximate = "tanh"}
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]
// FUSED-LABEL: func.func @f32_none(
//       FUSED:   %[[K:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> tensor<?x256xf32> {
//       FUSED:     %[[Y:.+]] = coda.add
//       FUSED:     %[[A:.+]] = coda.gelu %[[Y]] : (tensor<?x256xf32>)
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]
// FUSED-LABEL: func.func @bf16_tanh(
//       FUSED:   %[[K:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> tensor<?x256xbf16> {
//       FUSED:     %[[Y:.+]] = coda.add
//       FUSED:     %[[A:.+]] = coda.gelu %[[Y]] {approximate = "tanh"}
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]
// FUSED-LABEL: func.func @bf16_none(
//       FUSED:   %[[K:.+]] = coda.gemm %{{.+}}, [%{{.+}}] inputs(%{{.+}}) : {{.*}} -> tensor<?x256xbf16> {
//       FUSED:     %[[Y:.+]] = coda.add
//       FUSED:     %[[A:.+]] = coda.gelu %[[Y]] : (tensor<?x256xf32>)
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]

// GONE:     module
// GONE-NOT: coda.linear

func.func @f32_tanh(%x: tensor<?x64xf32>, %w: tensor<256x64xf32>, %b: tensor<256xf32>)
    -> tensor<?x256xf32> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %a = coda.gelu %y {approximate = "tanh"} : (tensor<?x256xf32>) -> tensor<?x256xf32>
  return %a : tensor<?x256xf32>
}

func.func @f32_none(%x: tensor<?x64xf32>, %w: tensor<256x64xf32>, %b: tensor<256xf32>)
    -> tensor<?x256xf32> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %a = coda.gelu %y {approximate = "none"} : (tensor<?x256xf32>) -> tensor<?x256xf32>
  return %a : tensor<?x256xf32>
}

func.func @bf16_tanh(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %b: tensor<256xbf16>)
    -> tensor<?x256xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16>
  %a = coda.gelu %y {approximate = "tanh"} : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %a : tensor<?x256xbf16>
}

func.func @bf16_none(%x: tensor<?x64xbf16>, %w: tensor<256x64xbf16>, %b: tensor<256xbf16>)
    -> tensor<?x256xbf16> {
  %y = coda.linear %x, %w, %b : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16>
  %a = coda.gelu %y {approximate = "none"} : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  return %a : tensor<?x256xbf16>
}

