// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %python -c "import json, sys; [print(k['name'], k['op'], k['rows'], k['rows_per_tile'], k['tiles_n'], [a['rows'] for a in k['arguments'] if 'rows' in a]) for k in json.load(open(sys.argv[1]))['functions'][0]['kernels']]" %t.plan.json | FileCheck %s --check-prefix=PLAN
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// Bias gradients. Of a GEMM's tile (the hidden bias of an MLP backward,
// the column sums of the activation's gradient that the dgrad epilogue
// makes): per-16-row sums in the epilogue, then a sum over their
// ceil(M / 16) rows. Of a function argument (the output bias, the column
// sums of the cotangent): the same kernel over all M rows, a CTA per 32
// columns.
// CHECK-LABEL: func.func @bias_gradients
//       CHECK:   coda.sum_rows %{{.+}} {{.*}}rows_per_tile = 2147483647 : i64, shared_bytes = 0 : i64, tiles_n = 6 : i64
//       CHECK:   coda.gemm
//       CHECK:     coda.partial_sum_rows
//       CHECK:   coda.sum_rows %{{.+}} {{.*}}rows_per_tile = 2147483647 : i64, shared_bytes = 0 : i64, tiles_n = 24 : i64
// PLAN: bias_gradients_rows0 coda.sum_rows -1 2147483647 6 [-1]
// PLAN: bias_gradients_gemm0 coda.gemm -1 256 6 [-1]
// PLAN: bias_gradients_rows1 coda.sum_rows -16 2147483647 24 [-16]
func.func @bias_gradients(%dy: tensor<?x192xbf16>, %w: tensor<192x768xbf16>, %z: tensor<?x768xbf16>)
    -> (tensor<192xbf16>, tensor<?x768xbf16>, tensor<768xbf16>) {
  %db2 = coda.sum_rows %dy : (tensor<?x192xbf16>) -> tensor<192xbf16>
  %da = coda.matmul %dy, %w : (tensor<?x192xbf16>, tensor<192x768xbf16>) -> tensor<?x768xbf16>
  %dz = coda.activation_grad %z, %da {activation = "gelu_tanh"} : (tensor<?x768xbf16>, tensor<?x768xbf16>) -> tensor<?x768xbf16>
  %db1 = coda.sum_rows %dz : (tensor<?x768xbf16>) -> tensor<768xbf16>
  return %db2, %dz, %db1 : tensor<192xbf16>, tensor<?x768xbf16>, tensor<768xbf16>
}
