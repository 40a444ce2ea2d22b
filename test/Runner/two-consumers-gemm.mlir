// Two consumers of one GEMM: y = x Wᵀ feeds a silu and a residual add, both
// returned. Both consumers join the GEMM's epilogue, which stores two
// outputs; y itself is stored only when it is returned too (@f32_keep).
//
// RUN: coda-run %s --entry f32 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32
// RUN: coda-run %s --entry f32 --rows 200 --seed 20 --compare-with-unfused | FileCheck %s --check-prefix=F32-200
// RUN: coda-run %s --entry f32_keep --rows 100 --seed 21 --compare-with-unfused | FileCheck %s --check-prefix=F32-KEEP
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 129 --seed 22 --compare-with-unfused | FileCheck %s --check-prefix=BF16-129
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32:      @f32: fused vs unfused, both against the unfused program in f64
// F32-NEXT:   result type fused error unfused error limit
// F32-NEXT:   #0 tensor<37x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NEXT:   #1 tensor<37x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NOT:  {{.}}

// F32-200:      #0 tensor<200x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-200-NEXT: #1 tensor<200x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// F32-KEEP:      @f32_keep: fused vs unfused, both against the unfused program in f64
// F32-KEEP-NEXT:   result type fused error unfused error limit
// F32-KEEP-NEXT:   #0 tensor<100x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-KEEP-NEXT:   #1 tensor<100x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-KEEP-NEXT:   #2 tensor<100x64xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}
// F32-KEEP-NOT:  {{.}}

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x64xbf16> {{.*}} ok{{$}}
// BF16-NEXT:   #1 tensor<37x64xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-129:      #0 tensor<129x64xbf16> {{.*}} ok{{$}}
// BF16-129-NEXT: #1 tensor<129x64xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>, %[[R:[^:]+]]: tensor<?x64xf32>)
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[X]], [%[[W]]] inputs(%[[R]]) : {{.*}} -> (tensor<?x64xf32>, tensor<?x64xf32>) {
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x64xf32>, %[[RES:[^:]+]]: tensor<?x64xf32>):
//       FUSED:     %[[A:.+]] = coda.silu %[[ACC]]
//       FUSED:     %[[S:.+]] = coda.add %[[RES]], %[[ACC]]
//       FUSED:     coda.yield %[[A]], %[[S]]
//       FUSED:   return %[[K]]#0, %[[K]]#1
// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[W:[^:]+]]: tensor<64x64xbf16>, %[[R:[^:]+]]: tensor<?x64xbf16>)
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[X]], [%[[W]]] inputs(%[[R]]) : {{.*}} -> (tensor<?x64xbf16>, tensor<?x64xbf16>) {
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x64xf32>, %[[RES:[^:]+]]: tensor<?x64xf32>):
//       FUSED:     %[[A:.+]] = coda.silu %[[ACC]]
//       FUSED:     %[[S:.+]] = coda.add %[[RES]], %[[ACC]]
//       FUSED:     coda.yield %[[A]], %[[S]]
//       FUSED:   return %[[K]]#0, %[[K]]#1
// FUSED-LABEL: func.func @f32_keep(
//       FUSED:   %[[K:.+]]:3 = coda.gemm
//       FUSED:   ^bb0(%[[ACC:[^:]+]]: tensor<?x64xf32>, %[[RES:[^:]+]]: tensor<?x64xf32>):
//       FUSED:     %[[A:.+]] = coda.silu %[[ACC]]
//       FUSED:     %[[S:.+]] = coda.add %[[RES]], %[[ACC]]
//       FUSED:     coda.yield %[[ACC]], %[[A]], %[[S]]
//       FUSED:   return %[[K]]#1, %[[K]]#2, %[[K]]#0

// Neither consumer is left outside a GEMM: every silu and add sits between a
// '^bb0' and a 'coda.yield'.
// GONE:     module
// GONE-NOT: coda.linear
// GONE-NOT: coda.silu
// GONE:     ^bb0
// GONE:     coda.silu
// GONE:     coda.add
// GONE:     coda.yield
// GONE-NOT: coda.silu
// GONE-NOT: coda.add
// GONE:     ^bb0
// GONE:     coda.silu
// GONE:     coda.add
// GONE:     coda.yield
// GONE-NOT: coda.silu
// GONE-NOT: coda.add
// GONE:     ^bb0
// GONE:     coda.silu
// GONE:     coda.add
// GONE:     coda.yield
// GONE-NOT: coda.silu
// GONE-NOT: coda.add
// GONE-NOT: coda.linear

func.func @f32(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>, %r: tensor<?x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %y = coda.linear %x, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %a = coda.silu %y : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %s = coda.add %r, %y : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %a, %s : tensor<?x64xf32>, tensor<?x64xf32>
}

func.func @bf16(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>, %r: tensor<?x64xbf16>)
    -> (tensor<?x64xbf16>, tensor<?x64xbf16>) {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %a = coda.silu %y : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %s = coda.add %r, %y : (tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %a, %s : tensor<?x64xbf16>, tensor<?x64xbf16>
}

func.func @f32_keep(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>, %r: tensor<?x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) {
  %y = coda.linear %x, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %a = coda.silu %y : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %s = coda.add %r, %y : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %a, %s, %y : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>
}
