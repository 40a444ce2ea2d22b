// RoPE, style "half" (Hugging Face rotate_half: pairs (x[i], x[i + d/2])): q|k|v from one
// linear, sliced, RoPE on the q (4 heads) and k (2 heads) ranges with head_dim
// 16, v untouched, concatenated back. cos and sin are f32 [M, 8]. The whole
// chain runs in the GEMM's epilogue and stores one tensor.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 12 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 13 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x128xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:  #0 tensor<200x128xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x128xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:  #0 tensor<129x128xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[W:[^:]+]]: tensor<128x64xf32>, %[[COS:[^:]+]]: tensor<?x8xf32>, %[[SIN:[^:]+]]: tensor<?x8xf32>)
//       FUSED:   %[[K:.+]] = coda.gemm %[[X]], [%[[W]]] inputs(%[[COS]], %[[SIN]]) : {{.*}} -> tensor<?x128xf32> {
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x128xf32>, %[[C:[^:]+]]: tensor<?x8xf32>, %[[S:[^:]+]]: tensor<?x8xf32>):
//   FUSED-DAG:     %[[QK:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 96 : i64}
//   FUSED-DAG:     %[[V:.+]] = coda.slice %[[ACC]] {offset = 96 : i64, size = 32 : i64}
//   FUSED-DAG:     %[[QKR:.+]] = coda.rope %[[QK]], %[[C]], %[[S]] {head_dim = 16 : i64}
//       FUSED:     %[[ALL:.+]] = coda.concat %[[QKR]], %[[V]]
//       FUSED:     coda.yield %[[ALL]]
//       FUSED:   return %[[K]]
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[W:[^:]+]]: tensor<128x64xbf16>, %[[COS:[^:]+]]: tensor<?x8xf32>, %[[SIN:[^:]+]]: tensor<?x8xf32>)
//       FUSED:   %[[K:.+]] = coda.gemm %[[X]], [%[[W]]] inputs(%[[COS]], %[[SIN]]) : {{.*}} -> tensor<?x128xbf16> {
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x128xf32>, %[[C:[^:]+]]: tensor<?x8xf32>, %[[S:[^:]+]]: tensor<?x8xf32>):
//   FUSED-DAG:     %[[QK:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 96 : i64}
//   FUSED-DAG:     %[[V:.+]] = coda.slice %[[ACC]] {offset = 96 : i64, size = 32 : i64}
//   FUSED-DAG:     %[[QKR:.+]] = coda.rope %[[QK]], %[[C]], %[[S]] {head_dim = 16 : i64}
//       FUSED:     %[[ALL:.+]] = coda.concat %[[QKR]], %[[V]]
//       FUSED:     coda.yield %[[ALL]]
//       FUSED:   return %[[K]]

// GONE:     module
// GONE-NOT: coda.linear

func.func @f32(%x: tensor<?x64xf32>, %w: tensor<128x64xf32>,
               %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> tensor<?x128xf32> {
  %qkv = coda.linear %x, %w : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %q = coda.slice %qkv {offset = 0 : i64, size = 64 : i64} : (tensor<?x128xf32>) -> tensor<?x64xf32>
  %k = coda.slice %qkv {offset = 64 : i64, size = 32 : i64} : (tensor<?x128xf32>) -> tensor<?x32xf32>
  %v = coda.slice %qkv {offset = 96 : i64, size = 32 : i64} : (tensor<?x128xf32>) -> tensor<?x32xf32>
  %qr = coda.rope %q, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xf32>
  %kr = coda.rope %k, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x32xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x32xf32>
  %out = coda.concat %qr, %kr, %v : (tensor<?x64xf32>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xf32>
  return %out : tensor<?x128xf32>
}

func.func @bf16(%x: tensor<?x64xbf16>, %w: tensor<128x64xbf16>,
               %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> tensor<?x128xbf16> {
  %qkv = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %q = coda.slice %qkv {offset = 0 : i64, size = 64 : i64} : (tensor<?x128xbf16>) -> tensor<?x64xbf16>
  %k = coda.slice %qkv {offset = 64 : i64, size = 32 : i64} : (tensor<?x128xbf16>) -> tensor<?x32xbf16>
  %v = coda.slice %qkv {offset = 96 : i64, size = 32 : i64} : (tensor<?x128xbf16>) -> tensor<?x32xbf16>
  %qr = coda.rope %q, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xbf16>
  %kr = coda.rope %k, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x32xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x32xbf16>
  %out = coda.concat %qr, %kr, %v : (tensor<?x64xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x128xbf16>
  return %out : tensor<?x128xbf16>
}

