// LM head + cross-entropy: h = rms_norm(x); logits = h Wᵀ (vocab 512, f32
// logits); loss = cross_entropy(logits, targets), reduced by "mean", "sum"
// or "none". The GEMM's epilogue emits per-tile log-sum-exp and
// target-logit partials (scaled by rstd first for f32: a bf16 norm stays a
// norm, whose output the GEMM reads); the logits are never stored.
// (ignore_index rows: lm-head-cross-entropy-ignore-index.mlir.)
//
// RUN: coda-run %s --entry f32_mean --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32-MEAN
// RUN: coda-run %s --entry f32_sum --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32-SUM
// RUN: coda-run %s --entry f32_none --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=F32-NONE
// RUN: coda-run %s --entry f32_none --rows 200 --seed 18 --compare-with-unfused | FileCheck %s --check-prefix=F32-NONE-200
// RUN: coda-run %s --entry bf16_mean --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16-MEAN
// RUN: coda-run %s --entry bf16_sum --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16-SUM
// RUN: coda-run %s --entry bf16_none --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16-NONE
// RUN: coda-run %s --entry bf16_none --rows 129 --seed 19 --compare-with-unfused | FileCheck %s --check-prefix=BF16-NONE-129
//
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=GONE

// F32-MEAN:      @f32_mean: fused vs unfused, both against the unfused program in f64
// F32-MEAN-NEXT:   result type fused error unfused error limit
// F32-MEAN-NEXT:   #0 tensor<f32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-MEAN-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// F32-MEAN-NOT:  {{.}}

// F32-SUM:      @f32_sum: fused vs unfused, both against the unfused program in f64
// F32-SUM-NEXT:   result type fused error unfused error limit
// F32-SUM-NEXT:   #0 tensor<f32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-SUM-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// F32-SUM-NOT:  {{.}}

// F32-NONE:      @f32_none: fused vs unfused, both against the unfused program in f64
// F32-NONE-NEXT:   result type fused error unfused error limit
// F32-NONE-NEXT:   #0 tensor<37xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{[0-9.]+e[-+][0-9]+}} {{[0-9.]+e[-+][0-9]+}} ok{{$}}
// F32-NONE-NOT:  {{.}}

// F32-NONE-200: #0 tensor<200xf32> {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0\.000e\+00)}} {{.*}} ok{{$}}

// BF16-MEAN:      @bf16_mean: fused vs unfused, both against the unfused program in f64
// BF16-MEAN-NEXT:   result type fused error unfused error limit
// BF16-MEAN-NEXT:   #0 tensor<f32> {{.*}} ok{{$}}
// BF16-MEAN-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// BF16-MEAN-NOT:  {{.}}

// BF16-SUM:      @bf16_sum: fused vs unfused, both against the unfused program in f64
// BF16-SUM-NEXT:   result type fused error unfused error limit
// BF16-SUM-NEXT:   #0 tensor<f32> {{.*}} ok{{$}}
// BF16-SUM-NEXT:   #0: one element; its errors are the root mean square over 8 input draws (seeds {{[0-9]+}} to {{[0-9]+}})
// BF16-SUM-NOT:  {{.}}

// BF16-NONE:      @bf16_none: fused vs unfused, both against the unfused program in f64
// BF16-NONE-NEXT:   result type fused error unfused error limit
// BF16-NONE-NEXT:   #0 tensor<37xf32> {{.*}} ok{{$}}
// BF16-NONE-NOT:  {{.}}

// BF16-NONE-129: #0 tensor<129xf32> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @f32_mean(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[G:[^:]+]]: tensor<64xf32>, %[[W:[^:]+]]: tensor<512x64xf32>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[ST:.+]]:2 = coda.norm_statistics %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[ST]]#1, %[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     %[[S:.+]] = coda.mul
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[S]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[S]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @f32_sum(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[G:[^:]+]]: tensor<64xf32>, %[[W:[^:]+]]: tensor<512x64xf32>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[ST:.+]]:2 = coda.norm_statistics %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[ST]]#1, %[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     %[[S:.+]] = coda.mul
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[S]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[S]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] {reduction = "sum"} : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @f32_none(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xf32>, %[[G:[^:]+]]: tensor<64xf32>, %[[W:[^:]+]]: tensor<512x64xf32>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[ST:.+]]:2 = coda.norm_statistics %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[ST]]#0, [%[[W]]] inputs(%[[ST]]#1, %[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     %[[S:.+]] = coda.mul
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[S]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[S]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] {reduction = "none"} : {{.*}} -> tensor<?xf32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16_mean(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<512x64xbf16>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[H:.+]] = coda.rms_norm %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[H]], [%[[W]]] inputs(%[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     ^bb0(%[[ACC:.+]]: tensor<?x512xf32>, %{{.+}}: tensor<?xi64>):
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[ACC]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[ACC]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16_sum(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<512x64xbf16>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[H:.+]] = coda.rms_norm %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[H]], [%[[W]]] inputs(%[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     ^bb0(%[[ACC:.+]]: tensor<?x512xf32>, %{{.+}}: tensor<?xi64>):
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[ACC]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[ACC]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] {reduction = "sum"} : {{.*}} -> tensor<f32>
//       FUSED:   return %[[L]]
// FUSED-LABEL: func.func @bf16_none(
//  FUSED-SAME:   %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>, %[[W:[^:]+]]: tensor<512x64xbf16>, %[[T:[^:]+]]: tensor<?xi64>)
//       FUSED:   %[[H:.+]] = coda.rms_norm %[[X]], %[[G]]
//       FUSED:   %[[K:.+]]:2 = coda.gemm %[[H]], [%[[W]]] inputs(%[[T]]) : {{.*}} -> (tensor<?x?xf32>, tensor<?x?xf32>) {
//       FUSED:     ^bb0(%[[ACC:.+]]: tensor<?x512xf32>, %{{.+}}: tensor<?xi64>):
//       FUSED:     %[[LSE:.+]] = coda.partial_reduce %[[ACC]] {kind = "lse"}
//       FUSED:     %[[PICK:.+]] = coda.partial_gather %[[ACC]], %{{.+}}
//       FUSED:     coda.yield %[[LSE]], %[[PICK]]
//       FUSED:   %[[LSE:.+]] = coda.reduce_partials %[[K]]#0 {kind = "lse"}
//       FUSED:   %[[PICKED:.+]] = coda.reduce_partials %[[K]]#1 :
//       FUSED:   %[[L:.+]] = coda.cross_entropy_from_partials %[[LSE]], %[[PICKED]], %[[T]] {reduction = "none"} : {{.*}} -> tensor<?xf32>
//       FUSED:   return %[[L]]

// No logits tensor is ever stored: no GEMM returns an [M, 512] result.
// GONE:     module
// GONE-NOT: coda.rms_norm %{{.*}} tensor<?x64xf32>
// GONE-NOT: coda.linear
// GONE-NOT: coda.cross_entropy %
// GONE-NOT: coda.gemm{{.*}} -> {{.*}}tensor<?x512xf32>

func.func @f32_mean(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<512x64xf32>,
                    %targets: tensor<?xi64>) -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "mean"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @f32_sum(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %w: tensor<512x64xf32>,
                    %targets: tensor<?xi64>) -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %logits = coda.linear %h, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "sum"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
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

func.func @bf16_sum(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<512x64xbf16>,
                    %targets: tensor<?xi64>) -> tensor<f32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "sum"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @bf16_none(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<512x64xbf16>,
                    %targets: tensor<?xi64>) -> tensor<?xf32> {
  %h = coda.rms_norm %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  %logits = coda.linear %h, %w : (tensor<?x64xbf16>, tensor<512x64xbf16>) -> tensor<?x512xf32>
  %loss = coda.cross_entropy %logits, %targets {ignore_index = -100 : i64, reduction = "none"} : (tensor<?x512xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

