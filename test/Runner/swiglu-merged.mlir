// SwiGLU: gate and up linears on one input merge into one GEMM over both
// weights; its epilogue slices the accumulator into the two column ranges and
// applies silu(gate) · up, so neither projection is stored.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 8 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 9 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
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
//  FUSED-SAME:   %[[H:[^:]+]]: tensor<?x64xf32>, %[[WG:[^:]+]]: tensor<128x64xf32>, %[[WU:[^:]+]]: tensor<128x64xf32>)
//       FUSED:   %[[K:.+]] = coda.gemm %[[H]], [%[[WG]], %[[WU]]] : {{.*}} -> tensor<?x128xf32> {
//       FUSED:   ^bb0(%[[ACC:.+]]: tensor<?x256xf32>):
//   FUSED-DAG:     %[[G:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 128 : i64}
//   FUSED-DAG:     %[[U:.+]] = coda.slice %[[ACC]] {offset = 128 : i64, size = 128 : i64}
//       FUSED:     %[[A:.+]] = coda.swiglu %[[G]], %[[U]]
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[H:[^:]+]]: tensor<?x64xbf16>, %[[WG:[^:]+]]: tensor<128x64xbf16>, %[[WU:[^:]+]]: tensor<128x64xbf16>)
//       FUSED:   %[[K:.+]] = coda.gemm %[[H]], [%[[WG]], %[[WU]]] : {{.*}} -> tensor<?x128xbf16> {
//       FUSED:   ^bb0(%[[ACC:.+]]: tensor<?x256xf32>):
//   FUSED-DAG:     %[[G:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 128 : i64}
//   FUSED-DAG:     %[[U:.+]] = coda.slice %[[ACC]] {offset = 128 : i64, size = 128 : i64}
//       FUSED:     %[[A:.+]] = coda.swiglu %[[G]], %[[U]]
//       FUSED:     coda.yield %[[A]]
//       FUSED:   return %[[K]]

// One GEMM per function, the SwiGLU only inside it.
// GONE:         module
// GONE-NOT:     coda.linear
// GONE:         coda.gemm
// GONE-NOT:     coda.gemm
// GONE:         coda.swiglu
// GONE-NOT:     coda.swiglu
// GONE:         return
// GONE-NOT:     coda.linear
// GONE:         coda.gemm
// GONE-NOT:     coda.gemm
// GONE:         coda.swiglu
// GONE-NOT:     coda.swiglu
// GONE:         return
// GONE-NOT:     coda.linear

func.func @f32(%h: tensor<?x64xf32>, %wg: tensor<128x64xf32>, %wu: tensor<128x64xf32>)
    -> tensor<?x128xf32> {
  %g = coda.linear %h, %wg : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %u = coda.linear %h, %wu : (tensor<?x64xf32>, tensor<128x64xf32>) -> tensor<?x128xf32>
  %a = coda.swiglu %g, %u : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
  return %a : tensor<?x128xf32>
}

func.func @bf16(%h: tensor<?x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>)
    -> tensor<?x128xbf16> {
  %g = coda.linear %h, %wg : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %u = coda.linear %h, %wu : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %a = coda.swiglu %g, %u : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  return %a : tensor<?x128xbf16>
}
