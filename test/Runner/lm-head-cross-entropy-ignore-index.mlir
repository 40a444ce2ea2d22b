// LM head + cross-entropy with ignore_index: the rows whose target is -100
// count 0 and, for "mean", are left out of the divisor, in the fused program
// (per-tile partials, coda.cross_entropy_from_partials) as in the unfused one.
// Generated targets are always in [0, 512), so the inputs come from .npy files
// here: x, gamma and W drawn as coda-run draws them, every fifth target -100.
// Inputs from files are one draw, so the scalar loss is judged on it alone
// (no line about draws follows the table).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py random %t/in/arg0.npy '<f4' 37,64 1 0 1
// RUN: %python %S/Inputs/npy.py random %t/in/arg1.npy '<f4' 64 2 1 0.1
// RUN: %python %S/Inputs/npy.py random %t/in/arg2.npy '<f4' 512,64 3 0 0.02
// RUN: %python %S/Inputs/npy.py write %t/in/arg3.npy '<i8' 37 '-100 if i %% 5 == 0 else random.randrange(512)'
// RUN: coda-run %s --entry f32_mean --inputs %t/in --compare-with-unfused | FileCheck %s --check-prefix=F32-MEAN
// RUN: coda-run %s --entry f32_none --inputs %t/in --compare-with-unfused --dump-outputs %t/f32-none | FileCheck %s --check-prefix=F32-NONE
// RUN: %python %S/Inputs/npy.py check %t/f32-none/result0.npy '<f4' 37 '0.0 if i %% 5 == 0 else None' | FileCheck %s --check-prefix=CHECKED
// RUN: coda-run %s --entry bf16_mean --inputs %t/in --compare-with-unfused | FileCheck %s --check-prefix=BF16-MEAN
// RUN: coda-run %s --entry bf16_none --inputs %t/in --compare-with-unfused --dump-outputs %t/bf16-none | FileCheck %s --check-prefix=BF16-NONE
// RUN: %python %S/Inputs/npy.py check %t/bf16-none/result0.npy '<f4' 37 '0.0 if i %% 5 == 0 else None' | FileCheck %s --check-prefix=CHECKED
//
// A non-default ignore_index (7) travels to the fused loss as well.
// RUN: mkdir -p %t/in7 && cp %t/in/arg0.npy %t/in/arg1.npy %t/in/arg2.npy %t/in7/
// RUN: %python %S/Inputs/npy.py write %t/in7/arg3.npy '<i8' 37 '7 if i %% 4 == 1 else random.randrange(512)'
// RUN: coda-run %s --entry f32_none_ignore7 --inputs %t/in7 --compare-with-unfused --dump-outputs %t/f32-none7 | FileCheck %s --check-prefix=F32-NONE7
// RUN: %python %S/Inputs/npy.py check %t/f32-none7/result0.npy '<f4' 37 '0.0 if i %% 4 == 1 else None' | FileCheck %s --check-prefix=CHECKED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED

// F32-MEAN:      @f32_mean: fused vs unfused, both against the unfused program in f64
// F32-MEAN-NEXT:   result type fused error unfused error limit
// F32-MEAN-NEXT:   #0 tensor<f32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-MEAN-NOT:  {{.}}

// F32-NONE:      @f32_none: fused vs unfused, both against the unfused program in f64
// F32-NONE-NEXT:   result type fused error unfused error limit
// F32-NONE-NEXT:   #0 tensor<37xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NONE-NOT:  {{.}}

// BF16-MEAN:      @bf16_mean: fused vs unfused, both against the unfused program in f64
// BF16-MEAN-NEXT:   result type fused error unfused error limit
// BF16-MEAN-NEXT:   #0 tensor<f32> {{.*}} ok{{$}}
// BF16-MEAN-NOT:  {{.}}

// BF16-NONE:      @bf16_none: fused vs unfused, both against the unfused program in f64
// BF16-NONE-NEXT:   result type fused error unfused error limit
// BF16-NONE-NEXT:   #0 tensor<37xf32> {{.*}} ok{{$}}
// BF16-NONE-NOT:  {{.}}

// F32-NONE7:      @f32_none_ignore7: fused vs unfused, both against the unfused program in f64
// F32-NONE7-NEXT:   result type fused error unfused error limit
// F32-NONE7-NEXT:   #0 tensor<37xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NONE7-NOT:  {{.}}

// CHECKED: ok: 37 elements

// The loss comes from the GEMM's partials and keeps ignore_index (the default
// -100 is elided when printed, 7 is not).
// FUSED-LABEL: func.func @f32_mean(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %{{[^ ]+}} : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @f32_none(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %{{[^ ]+}} {reduction = "none"} : {{.*}} -> tensor<?xf32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16_mean(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %{{[^ ]+}} : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16_none(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %{{[^ ]+}} {reduction = "none"} : {{.*}} -> tensor<?xf32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @f32_none_ignore7(
//       FUSED:   %[[K:.+]]:2 = coda.gemm {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %{{[^ ]+}} {ignore_index = 7 : i64, reduction = "none"} : {{.*}} -> tensor<?xf32>
//       FUSED:   return %[[L]]

func.func @f32_mean(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<512x64xf32>,
                    %targets: tensor<?xi64>) -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @f32_none(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<512x64xf32>,
                    %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "none"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

func.func @bf16_mean(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<512x64xbf16>,
                    %targets: tensor<?xi64>) -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @bf16_none(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<512x64xbf16>,
                    %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "none"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

func.func @f32_none_ignore7(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<512x64xf32>,
                            %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = 7 : i64, reduction = "none"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}
