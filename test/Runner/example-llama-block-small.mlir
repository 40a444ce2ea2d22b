// A small version of examples/llama3-1b-block.mlir: hidden 64, FFN 128,
// 4 query heads and 2 key/value heads of head_dim 16 (q|k|v width
// 64 + 32 + 32), RoPE tables f32 [M, 8]. The fused program has the example's
// structure (four GEMM-epilogue kernels, two small reductions) and must match
// the unfused one.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 23 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 24 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=COUNT
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NEXT:   #1 tensor<37x128xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:      #0 tensor<200x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-200-NEXT: #1 tensor<200x128xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x64xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #1 tensor<37x128xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:      #0 tensor<129x64xbf16> {{.*}} ok{{$}}
// BF16-129-NEXT: #1 tensor<129x128xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X0:[^:]+]]: tensor<?x64xf32>, %[[Y0:[^:]+]]: tensor<?x64xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>, %[[G1:[^:]+]]: tensor<64xf32>, %[[WG:[^:]+]]: tensor<128x64xf32>, %[[WU:[^:]+]]: tensor<128x64xf32>, %[[WD:[^:]+]]: tensor<64x128xf32>, %[[G2:[^:]+]]: tensor<64xf32>, %[[WQKV:[^:]+]]: tensor<128x64xf32>, %[[COS:[^:]+]]: tensor<?x8xf32>, %[[SIN:[^:]+]]: tensor<?x8xf32>)
// Kernel 1: O-proj + residual + partial sums of squares + h1 = x1 · g1.
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %[[Y0]], [%[[WO]]] inputs(%[[X0]], %[[G1]])
//  FUSED-SAME:     -> (tensor<?x64xf32>, tensor<?x?xf32>, tensor<?x64xf32>)
//       FUSED:     coda.add
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"}
//       FUSED:     coda.mul
//       FUSED:   %[[R1:.+]] = coda.reduce_partials %[[K1]]#1 {count = 64 : i64, {{.*}}kind = "rstd"}
// Kernel 2: gate and up in one GEMM, row scale by rstd1, SwiGLU.
//       FUSED:   %[[K2:.+]] = coda.gemm %[[K1]]#2, [%[[WG]], %[[WU]]] inputs(%[[R1]])
//  FUSED-SAME:     -> tensor<?x128xf32>
//       FUSED:     coda.mul
//       FUSED:     coda.swiglu
// Kernel 3: down + residual x1 + partial sums of squares + h2 = x2 · g2.
//       FUSED:   %[[K3:.+]]:3 = coda.gemm %[[K2]], [%[[WD]]] inputs(%[[K1]]#0, %[[G2]])
//       FUSED:     coda.add
//       FUSED:     coda.partial_reduce
//       FUSED:     coda.mul
//       FUSED:   %[[R2:.+]] = coda.reduce_partials %[[K3]]#1 {{.*}}kind = "rstd"
// Kernel 4: QKV + row scale by rstd2 + RoPE on q and k, v untouched.
//       FUSED:   %[[K4:.+]] = coda.gemm %[[K3]]#2, [%[[WQKV]]] inputs(%[[R2]], %[[COS]], %[[SIN]])
//  FUSED-SAME:     -> tensor<?x128xf32>
//       FUSED:     coda.mul
//   FUSED-DAG:     coda.rope %{{.+}}, {{.*}} : (tensor<?x96xf32>,
//       FUSED:     coda.concat
//       FUSED:   return %[[K3]]#0, %[[K4]]
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X0:[^:]+]]: tensor<?x64xbf16>, %[[Y0:[^:]+]]: tensor<?x64xbf16>, %[[WO:[^:]+]]: tensor<64x64xbf16>, %[[G1:[^:]+]]: tensor<64xbf16>, %[[WG:[^:]+]]: tensor<128x64xbf16>, %[[WU:[^:]+]]: tensor<128x64xbf16>, %[[WD:[^:]+]]: tensor<64x128xbf16>, %[[G2:[^:]+]]: tensor<64xbf16>, %[[WQKV:[^:]+]]: tensor<128x64xbf16>, %[[COS:[^:]+]]: tensor<?x8xf32>, %[[SIN:[^:]+]]: tensor<?x8xf32>)
// Kernel 1: O-proj + residual + partial sums of squares + h1 = x1 · g1.
//       FUSED:   %[[K1:.+]]:3 = coda.gemm %[[Y0]], [%[[WO]]] inputs(%[[X0]], %[[G1]])
//  FUSED-SAME:     -> (tensor<?x64xbf16>, tensor<?x?xf32>, tensor<?x64xbf16>)
//       FUSED:     coda.add
//       FUSED:     coda.partial_reduce %{{.+}} {kind = "sum_squares"}
//       FUSED:     coda.mul
//       FUSED:   %[[R1:.+]] = coda.reduce_partials %[[K1]]#1 {count = 64 : i64, {{.*}}kind = "rstd"}
// Kernel 2: gate and up in one GEMM, row scale by rstd1, SwiGLU.
//       FUSED:   %[[K2:.+]] = coda.gemm %[[K1]]#2, [%[[WG]], %[[WU]]] inputs(%[[R1]])
//  FUSED-SAME:     -> tensor<?x128xbf16>
//       FUSED:     coda.mul
//       FUSED:     coda.swiglu
// Kernel 3: down + residual x1 + partial sums of squares + h2 = x2 · g2.
//       FUSED:   %[[K3:.+]]:3 = coda.gemm %[[K2]], [%[[WD]]] inputs(%[[K1]]#0, %[[G2]])
//       FUSED:     coda.add
//       FUSED:     coda.partial_reduce
//       FUSED:     coda.mul
//       FUSED:   %[[R2:.+]] = coda.reduce_partials %[[K3]]#1 {{.*}}kind = "rstd"
// Kernel 4: QKV + row scale by rstd2 + RoPE on q and k, v untouched.
//       FUSED:   %[[K4:.+]] = coda.gemm %[[K3]]#2, [%[[WQKV]]] inputs(%[[R2]], %[[COS]], %[[SIN]])
//  FUSED-SAME:     -> tensor<?x128xbf16>
//       FUSED:     coda.mul
//   FUSED-DAG:     coda.rope %{{.+}}, {{.*}} : (tensor<?x96xf32>,
//       FUSED:     coda.concat
//       FUSED:   return %[[K3]]#0, %[[K4]]

// Per function: four GEMMs, two reductions, no graph-level norm or linear.
// COUNT-LABEL:   func.func @f32(
// COUNT-COUNT-4: coda.gemm
// COUNT-NOT:     coda.gemm
// COUNT-LABEL:   func.func @bf16(
// COUNT-COUNT-4: coda.gemm
// COUNT-NOT:     coda.gemm
// GONE:          module
// GONE-NOT:      coda.linear
// GONE-NOT:      coda.rms_norm
// GONE-NOT:      coda.norm_statistics

func.func @f32(%x0: tensor<?x64xf32>, %y0: tensor<?x64xf32>,
                 %wo: tensor<64x64xf32>, %g1: tensor<64xf32>,
                 %wg: tensor<128x64xf32>, %wu: tensor<128x64xf32>,
                 %wd: tensor<64x128xf32>, %g2: tensor<64xf32>,
                 %wqkv: tensor<128x64xf32>,
                 %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>)
    -> (tensor<?x64xf32>, tensor<?x128xf32>) {
  %o = coda.linear %y0, %wo : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %x1 = coda.add %x0, %o : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %h1 = coda.rms_norm %x1, %g1 {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %gate = coda.linear %h1, %wg : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %up = coda.linear %h1, %wu : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %act = coda.swiglu %gate, %up : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
  %down = coda.linear %act, %wd : (tensor<?x128xf32>, tensor<64x128xf32>) -> tensor<?x64xf32>
  %x2 = coda.add %x1, %down : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %h2 = coda.rms_norm %x2, %g2 {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %qkv = coda.linear %h2, %wqkv : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %q = coda.slice %qkv {offset = 0 : i64, size = 64 : i64} : (tensor<?x128xf32>) -> tensor<?x64xf32>
  %k = coda.slice %qkv {offset = 64 : i64, size = 32 : i64} : (tensor<?x128xf32>) -> tensor<?x32xf32>
  %v = coda.slice %qkv {offset = 96 : i64, size = 32 : i64} : (tensor<?x128xf32>) -> tensor<?x32xf32>
  %q_rot = coda.rope %q, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xf32>
  %k_rot = coda.rope %k, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x32xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x32xf32>
  %qkv_rot = coda.concat %q_rot, %k_rot, %v : (tensor<?x64xf32>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xf32>
  return %x2, %qkv_rot : tensor<?x64xf32>, tensor<?x128xf32>
}

func.func @bf16(%x0: tensor<?x64xbf16>, %y0: tensor<?x64xbf16>,
                 %wo: tensor<64x64xbf16>, %g1: tensor<64xbf16>,
                 %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>,
                 %wd: tensor<64x128xbf16>, %g2: tensor<64xbf16>,
                 %wqkv: tensor<128x64xbf16>,
                 %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>)
    -> (tensor<?x64xbf16>, tensor<?x128xbf16>) {
  %o = coda.linear %y0, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %x1 = coda.add %x0, %o : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %h1 = coda.rms_norm %x1, %g1 {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %gate = coda.linear %h1, %wg : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %up = coda.linear %h1, %wu : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %act = coda.swiglu %gate, %up : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %down = coda.linear %act, %wd : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16>
  %x2 = coda.add %x1, %down : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %h2 = coda.rms_norm %x2, %g2 {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %qkv = coda.linear %h2, %wqkv : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %q = coda.slice %qkv {offset = 0 : i64, size = 64 : i64} : (tensor<?x128xbf16>) -> tensor<?x64xbf16>
  %k = coda.slice %qkv {offset = 64 : i64, size = 32 : i64} : (tensor<?x128xbf16>) -> tensor<?x32xbf16>
  %v = coda.slice %qkv {offset = 96 : i64, size = 32 : i64} : (tensor<?x128xbf16>) -> tensor<?x32xbf16>
  %q_rot = coda.rope %q, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x64xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x64xbf16>
  %k_rot = coda.rope %k, %cos, %sin {head_dim = 16 : i64, style = "half"} : (tensor<?x32xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x32xbf16>
  %qkv_rot = coda.concat %q_rot, %k_rot, %v : (tensor<?x64xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x128xbf16>
  return %x2, %qkv_rot : tensor<?x64xbf16>, tensor<?x128xbf16>
}

