// The gradients of two linears, y = (x W₁ᵀ) W₂ᵀ with h = x W₁ᵀ saved, as
// coda-generate-backward writes them: dgrad products dy · W (GEMMs that read
// W as stored, b_layout "kn") and weight gradients dyᵀ · x (GEMMs that
// reduce both operands over their rows, a_layout "km"). With the SiLU
// gradient of an activation between them absorbed into the dgrad epilogue.
//
// RUN: coda-run %s --entry bf16 --rows 515 --seed 2 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16_silu --rows 37 --seed 3 --compare-with-unfused | FileCheck %s --check-prefix=SILU
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16:        #0 tensor<515x256xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #1 tensor<512x256xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #2 tensor<128x512xbf16> {{.*}} ok{{$}}
// SILU-COUNT-2: {{^  #[01] .* ok$}}

// FUSED-LABEL: func.func @bf16(
//       FUSED:   coda.gemm %{{.*}}, [%{{.*}}] {b_layout = "kn"} : (tensor<?x128xbf16>, tensor<128x512xbf16>) -> tensor<?x512xbf16>
//       FUSED:   coda.gemm %{{.*}}, [%{{.*}}] {a_layout = "km", b_layout = "kn"} : (tensor<?x128xbf16>, tensor<?x512xbf16>) -> tensor<128x512xbf16>
//       FUSED:   coda.gemm %{{.*}}, [%{{.*}}] {b_layout = "kn"} : (tensor<?x512xbf16>, tensor<512x256xbf16>) -> tensor<?x256xbf16>
//       FUSED:   coda.gemm %{{.*}}, [%{{.*}}] {a_layout = "km", b_layout = "kn"} : (tensor<?x512xbf16>, tensor<?x256xbf16>) -> tensor<512x256xbf16>
// FUSED-LABEL: func.func @bf16_silu(
//       FUSED:   coda.gemm {{.*}} {b_layout = "kn"}
//       FUSED:     coda.activation_grad

func.func @bf16(%x: tensor<?x256xbf16>, %w1: tensor<512x256xbf16>,
                %w2: tensor<128x512xbf16>, %h: tensor<?x512xbf16>,
                %dy: tensor<?x128xbf16>)
    -> (tensor<?x256xbf16>, tensor<512x256xbf16>, tensor<128x512xbf16>) {
  %dh = coda.matmul %dy, %w2 : (tensor<?x128xbf16>, tensor<128x512xbf16>) -> tensor<?x512xbf16>
  %dw2 = coda.transposed_matmul %dy, %h : (tensor<?x128xbf16>, tensor<?x512xbf16>) -> tensor<128x512xbf16>
  %dx = coda.matmul %dh, %w1 : (tensor<?x512xbf16>, tensor<512x256xbf16>) -> tensor<?x256xbf16>
  %dw1 = coda.transposed_matmul %dh, %x : (tensor<?x512xbf16>, tensor<?x256xbf16>) -> tensor<512x256xbf16>
  return %dx, %dw1, %dw2 : tensor<?x256xbf16>, tensor<512x256xbf16>, tensor<128x512xbf16>
}

func.func @bf16_silu(%z: tensor<?x512xbf16>, %w2: tensor<128x512xbf16>,
                     %dy: tensor<?x128xbf16>, %a: tensor<?x512xbf16>)
    -> (tensor<?x512xbf16>, tensor<128x512xbf16>) {
  %da = coda.matmul %dy, %w2 : (tensor<?x128xbf16>, tensor<128x512xbf16>) -> tensor<?x512xbf16>
  %dz = coda.activation_grad %z, %da {activation = "silu"} : (tensor<?x512xbf16>, tensor<?x512xbf16>) -> tensor<?x512xbf16>
  %dw2 = coda.transposed_matmul %dy, %a : (tensor<?x128xbf16>, tensor<?x512xbf16>) -> tensor<128x512xbf16>
  return %dz, %dw2 : tensor<?x512xbf16>, tensor<128x512xbf16>
}
