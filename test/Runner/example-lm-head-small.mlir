// A small version of examples/lm-head.mlir: hidden 64, vocab 512; final
// RMSNorm, a linear with f32 logits and the mean cross-entropy (ignore_index
// -100). The loss comes from per-tile partials in the GEMM's epilogue; the
// logits are never stored. The f32 norm becomes statistics and a row scale
// in the GEMM; the bf16 one stays a norm (its h = x * gamma would round a
// product of two bf16 tensors, a biased rounding), and the GEMM reads its
// output.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 27 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<f32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// F32-NOT:  {{.}}

// F32-200:  #0 tensor<f32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<f32> {{.*}} ok{{$}}
// BF16-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// BF16-NOT:  {{.}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[G:[^:]+]]: tensor<64xf32>, %[[W:[^:]+]]: tensor<512x64xf32>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[ST:.+]]:2 = coda.norm_statistics %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[ST]]#1, %[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<512x64xbf16>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[H:.+]] = coda.rms_norm %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[H]], [%[[W]]] inputs(%[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "lse"}
//       FUSED:     coda.partial_gather
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]

// GONE:     func.func @f32
// GONE-NOT: coda.rms_norm
// GONE-NOT: coda.linear
// GONE:     func.func @bf16
// GONE-NOT: coda.linear
// GONE-NOT: coda.cross_entropy %

func.func @f32(%x: tensor<?x64xf32>, %g: tensor<64xf32>,
                   %w: tensor<512x64xf32>, %targets: tensor<?xi64>)
    -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @bf16(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>,
                   %w: tensor<512x64xbf16>, %targets: tensor<?xi64>)
    -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

