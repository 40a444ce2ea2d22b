// LayerNorm whose input rows have a mean large against their spread, in f32.
// After a GEMM (x = y Woᵀ with y = 1 + N(0, 1), Wo = 1/64 + N(0, 0.005²), so
// each row of x has |mean| / std ≈ 18) the variance comes from block sums and
// centered block sums of squares combined without cancellation; a first
// layer with mean 1000 and std 1 gets its statistics kernel's centered
// (x − mean) · gamma, so no large terms cancel either.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/after/arg0.npy '<f4' 37,64 '1 + random.gauss(0, 1)'
// RUN: %python %S/Inputs/npy.py write %t/after/arg1.npy '<f4' 64,64 '1/64 + random.gauss(0, 0.005)'
// RUN: %python %S/Inputs/npy.py random %t/after/arg2.npy '<f4' 64 2 1 0.1
// RUN: %python %S/Inputs/npy.py random %t/after/arg3.npy '<f4' 64 3 0 0.1
// RUN: %python %S/Inputs/npy.py random %t/after/arg4.npy '<f4' 96,64 4 0 0.02
// RUN: %python %S/Inputs/npy.py random %t/after/arg5.npy '<f4' 96 5 0 0.1
// RUN: coda-run %s --entry after_gemm --inputs %t/after --compare-with-unfused | FileCheck %s --check-prefix=AFTER
// AFTER: #0 tensor<37x96xf32> {{.*}} ok{{$}}
//
// RUN: %python %S/Inputs/npy.py random %t/first/arg0.npy '<f4' 37,64 1 1000 1
// RUN: %python %S/Inputs/npy.py random %t/first/arg1.npy '<f4' 64 2 1 0.1
// RUN: %python %S/Inputs/npy.py random %t/first/arg2.npy '<f4' 64 3 0 0.1
// RUN: %python %S/Inputs/npy.py random %t/first/arg3.npy '<f4' 96,64 4 0 0.02
// RUN: %python %S/Inputs/npy.py random %t/first/arg4.npy '<f4' 96 5 0 0.1
// RUN: coda-run %s --entry first_layer --inputs %t/first --compare-with-unfused | FileCheck %s --check-prefix=FIRST
// FIRST: #0 tensor<37x96xf32> {{.*}} ok{{$}}

func.func @after_gemm(%y: tensor<?x64xf32>, %wo: tensor<64x64xf32>, %g: tensor<64xf32>,
                      %beta: tensor<64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>)
    -> tensor<?x96xf32> {
  %x = coda.linear %y, %wo : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %z = coda.linear %h, %w, %b : (tensor<?x64xf32>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  return %z : tensor<?x96xf32>
}

func.func @first_layer(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>,
                       %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<?x96xf32> {
  %h = coda.layer_norm %x, %g, %beta {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = coda.linear %h, %w, %b : (tensor<?x64xf32>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  return %y : tensor<?x96xf32>
}
