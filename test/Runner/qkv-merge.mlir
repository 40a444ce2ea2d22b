// QKV merge: three linears sharing an input (q and v with a bias, k without)
// become one GEMM over the three weights; its epilogue adds each bias to its
// own column range. The merge is exact (the same f32 dot product, rounded
// once), so the fused error equals the unfused one, digit for digit.
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 16 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 17 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x64xf32> [[E0:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E0]] 1.000e-05 ok{{$}}
// F32-NEXT:   #1 tensor<37x32xf32> [[E1:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E1]] 1.000e-05 ok{{$}}
// F32-NEXT:   #2 tensor<37x32xf32> [[E2:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E2]] 1.000e-05 ok{{$}}
// F32-NOT:  {{.}}

// F32-200:      #0 tensor<200x64xf32> [[E0:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E0]] 1.000e-05 ok{{$}}
// F32-200-NEXT: #1 tensor<200x32xf32> [[E1:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E1]] 1.000e-05 ok{{$}}
// F32-200-NEXT: #2 tensor<200x32xf32> [[E2:([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)]] [[E2]] 1.000e-05 ok{{$}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x64xbf16> [[E0:[0-9.]+e[-+][0-9]+]] [[E0]] {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// BF16-NEXT:   #1 tensor<37x32xbf16> [[E1:[0-9.]+e[-+][0-9]+]] [[E1]] {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// BF16-NEXT:   #2 tensor<37x32xbf16> [[E2:[0-9.]+e[-+][0-9]+]] [[E2]] {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:      #0 tensor<129x64xbf16> [[E0:[0-9.]+e[-+][0-9]+]] [[E0]] {{.*}} ok{{$}}
// BF16-129-NEXT: #1 tensor<129x32xbf16> [[E1:[0-9.]+e[-+][0-9]+]] [[E1]] {{.*}} ok{{$}}
// BF16-129-NEXT: #2 tensor<129x32xbf16> [[E2:[0-9.]+e[-+][0-9]+]] [[E2]] {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[WQ:[^:]+]]: tensor<64x64xf32>, %[[BQ:[^:]+]]: tensor<64xf32>, %[[WK:[^:]+]]: tensor<32x64xf32>, %[[WV:[^:]+]]: tensor<32x64xf32>, %[[BV:[^:]+]]: tensor<32xf32>)
//       FUSED:   %[[K:.+]]:3 = coda.gemm %[[X]], [%[[WQ]], %[[WK]], %[[WV]]] inputs(%[[BQ]], %[[BV]])
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x128xf32>, %[[B0:[^:]+]]: tensor<64xf32>, %[[B1:[^:]+]]: tensor<32xf32>):
//       FUSED:     %[[Q:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 64 : i64}
//       FUSED:     coda.add %[[Q]], %[[B0]]
//       FUSED:     %[[V:.+]] = coda.slice %[[ACC]] {offset = 96 : i64, size = 32 : i64}
//       FUSED:     coda.add %[[V]], %[[B1]]
//       FUSED:     coda.yield
//       FUSED:   return %[[K]]#{{[0-2]}}, %[[K]]#{{[0-2]}}, %[[K]]#{{[0-2]}} :
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[WQ:[^:]+]]: tensor<64x64xbf16>, %[[BQ:[^:]+]]: tensor<64xbf16>, %[[WK:[^:]+]]: tensor<32x64xbf16>, %[[WV:[^:]+]]: tensor<32x64xbf16>, %[[BV:[^:]+]]: tensor<32xbf16>)
//       FUSED:   %[[K:.+]]:3 = coda.gemm %[[X]], [%[[WQ]], %[[WK]], %[[WV]]] inputs(%[[BQ]], %[[BV]])
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x128xf32>, %[[B0:[^:]+]]: tensor<64xf32>, %[[B1:[^:]+]]: tensor<32xf32>):
//       FUSED:     %[[Q:.+]] = coda.slice %[[ACC]] {offset = 0 : i64, size = 64 : i64}
//       FUSED:     coda.add %[[Q]], %[[B0]]
//       FUSED:     %[[V:.+]] = coda.slice %[[ACC]] {offset = 96 : i64, size = 32 : i64}
//       FUSED:     coda.add %[[V]], %[[B1]]
//       FUSED:     coda.yield
//       FUSED:   return %[[K]]#{{[0-2]}}, %[[K]]#{{[0-2]}}, %[[K]]#{{[0-2]}} :

// One GEMM per function and no linear left.
// GONE:     module
// GONE-NOT: coda.linear
// GONE:     coda.gemm
// GONE-NOT: coda.gemm
// GONE:     return
// GONE-NOT: coda.linear
// GONE:     coda.gemm
// GONE-NOT: coda.gemm
// GONE:     return
// GONE-NOT: coda.linear

func.func @f32(%x: tensor<?x64xf32>, %wq: tensor<64x64xf32>, %bq: tensor<64xf32>,
               %wk: tensor<32x64xf32>, %wv: tensor<32x64xf32>, %bv: tensor<32xf32>)
    -> (tensor<?x64xf32>, tensor<?x32xf32>, tensor<?x32xf32>) {
  %q = coda.linear %x, %wq, %bq : (tensor<?x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %k = coda.linear %x, %wk : (tensor<?x64xf32>, tensor<32x64xf32>) -> tensor<?x32xf32>
  %v = coda.linear %x, %wv, %bv : (tensor<?x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %q, %k, %v : tensor<?x64xf32>, tensor<?x32xf32>, tensor<?x32xf32>
}

func.func @bf16(%x: tensor<?x64xbf16>, %wq: tensor<64x64xbf16>, %bq: tensor<64xbf16>,
               %wk: tensor<32x64xbf16>, %wv: tensor<32x64xbf16>, %bv: tensor<32xbf16>)
    -> (tensor<?x64xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>) {
  %q = coda.linear %x, %wq, %bq : (tensor<?x64xbf16>, tensor<64x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %k = coda.linear %x, %wk : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  %v = coda.linear %x, %wv, %bv : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<32xbf16>) -> tensor<?x32xbf16>
  return %q, %k, %v : tensor<?x64xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>
}

