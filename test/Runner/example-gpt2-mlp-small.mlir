// A small version of examples/gpt2-mlp.mlir: hidden 64, FFN 256.
//   h = layer_norm(x) · g + b;  y = x + gelu_tanh(h W1ᵀ + b1) W2ᵀ + b2
// The first LayerNorm has no producing GEMM, so its statistics are a kernel
// of their own; gamma W1ᵀ and beta W1ᵀ are GEMMs on the parameters only; the
// up projection's epilogue applies the norm, both biases and the GELU; the
// down projection's adds its bias and the residual.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 25 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 26 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:  #0 tensor<200x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x64xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:  #0 tensor<129x64xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[G:[^:]+]]: tensor<64xf32>, %[[B:[^:]+]]: tensor<64xf32>, %[[W1:[^:]+]]: tensor<256x64xf32>, %[[B1:[^:]+]]: tensor<256xf32>, %[[W2:[^:]+]]: tensor<64x256xf32>, %[[B2:[^:]+]]: tensor<64xf32>)
//       FUSED:   %[[ST:.+]]:3 = coda.norm_statistics %[[X]], %[[G]] {{.*}}kind = "layer_norm"
//       FUSED:   %[[UP:.+]] = coda.gemm %[[ST]]#0, [%[[W1]]] inputs(%[[B1]], %[[ST]]#1, %{{.+}}) : {{.*}} -> tensor<?x256xf32> {
//       FUSED:     coda.mul
//       FUSED:     coda.gelu %{{.+}} {approximate = "tanh"}
//       FUSED:   %[[DOWN:.+]] = coda.gemm %[[UP]], [%[[W2]]] inputs(%[[B2]], %[[X]]) : {{.*}} -> tensor<?x64xf32> {
//       FUSED:     %[[T:.+]] = coda.add %{{.+}}, %{{.+}} : (tensor<?x64xf32>, tensor<64xf32>)
//       FUSED:     %[[Y:.+]] = coda.add %{{.+}}, %[[T]] : (tensor<?x64xf32>, tensor<?x64xf32>)
//       FUSED:     coda.yield %[[Y]]
//       FUSED:   return %[[DOWN]]
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[B:[^:]+]]: tensor<64xbf16>, %[[W1:[^:]+]]: tensor<256x64xbf16>, %[[B1:[^:]+]]: tensor<256xbf16>, %[[W2:[^:]+]]: tensor<64x256xbf16>, %[[B2:[^:]+]]: tensor<64xbf16>)
//       FUSED:   %[[ST:.+]]:3 = coda.norm_statistics %[[X]], %[[G]] {{.*}}kind = "layer_norm"
//       FUSED:   %[[UP:.+]] = coda.gemm %[[ST]]#0, [%[[W1]]] inputs(%[[B1]], %[[ST]]#1, %{{.+}}) : {{.*}} -> tensor<?x256xbf16> {
//       FUSED:     coda.mul
//       FUSED:     coda.gelu %{{.+}} {approximate = "tanh"}
//       FUSED:   %[[DOWN:.+]] = coda.gemm %[[UP]], [%[[W2]]] inputs(%[[B2]], %[[X]]) : {{.*}} -> tensor<?x64xbf16> {
//       FUSED:     %[[T:.+]] = coda.add %{{.+}}, %{{.+}} : (tensor<?x64xf32>, tensor<64xf32>)
//       FUSED:     %[[Y:.+]] = coda.add %{{.+}}, %[[T]] : (tensor<?x64xf32>, tensor<?x64xf32>)
//       FUSED:     coda.yield %[[Y]]
//       FUSED:   return %[[DOWN]]

// GONE:     module
// GONE-NOT: coda.layer_norm
// GONE-NOT: coda.linear

func.func @f32(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>,
               %w1: tensor<256x64xf32>, %b1: tensor<256xf32>,
               %w2: tensor<64x256xf32>, %b2: tensor<64xf32>)
    -> tensor<?x64xf32> {
  %h = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %up = coda.linear %h, %w1, %b1 : (tensor<?x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %act = coda.gelu %up {approximate = "tanh"} : (tensor<?x256xf32>) -> tensor<?x256xf32>
  %down = coda.linear %act, %w2, %b2 : (tensor<?x256xf32>, tensor<64x256xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.add %x, %down : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

func.func @bf16(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>,
               %w1: tensor<256x64xbf16>, %b1: tensor<256xbf16>,
               %w2: tensor<64x256xbf16>, %b2: tensor<64xbf16>)
    -> tensor<?x64xbf16> {
  %h = coda.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %up = coda.linear %h, %w1, %b1 : (tensor<?x64xbf16>, tensor<256x64xbf16>, tensor<256xbf16>) -> tensor<?x256xbf16>
  %act = coda.gelu %up {approximate = "tanh"} : (tensor<?x256xbf16>) -> tensor<?x256xbf16>
  %down = coda.linear %act, %w2, %b2 : (tensor<?x256xbf16>, tensor<64x256xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %y = coda.add %x, %down : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

