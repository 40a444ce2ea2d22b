// The input gradient of a SwiGLU MLP with a residual: dx = r + du · Wu +
// dg · Wg. The fuse pipeline makes it one GEMM summing both products into
// its f32 accumulator, the residual added in its epilogue, so the sum is
// rounded once (the unfused program rounds each product first). The K of
// each product (72 and 200) and N = 200 are no tile multiples: the kernel
// runs 2 k-tiles of the up product, then 4 of the gate product, the last of
// each padded with zeros. @three sums three products (K of 64, 136, 200)
// through two adds: one GEMM over all three, rounded once (at 45 rows its
// error is 0.6x the unfused program's, which rounds after each product and
// each add).
//
// RUN: coda-run %s --entry bf16 --rows 37 --seed 1 --compare-with-unfused | FileCheck %s --check-prefix=BF16
// RUN: coda-run %s --entry bf16 --rows 130 --seed 2 --compare-with-unfused | FileCheck %s --check-prefix=BF16-130
// RUN: coda-run %s --entry three --rows 45 --seed 3 --compare-with-unfused | FileCheck %s --check-prefix=THREE
// RUN: coda-opt %s --coda-fuse-pipeline | FileCheck %s --check-prefix=FUSED

// BF16:      @bf16: fused vs unfused, both against the unfused program in f64
// BF16-NEXT:   result type fused error unfused error limit
// BF16-NEXT:   #0 tensor<37x200xbf16> {{.*}} ok{{$}}
// BF16-NOT:  {{.}}

// BF16-130:  #0 tensor<130x200xbf16> {{.*}} ok{{$}}

// THREE:      @three: fused vs unfused, both against the unfused program in f64
// THREE-NEXT:   result type fused error unfused error limit
// THREE-NEXT:   #0 tensor<45x136xbf16> {{.*}} ok{{$}}

// FUSED-LABEL: func.func @bf16(
//  FUSED-SAME:   %[[DG:[^:]+]]: tensor<?x200xbf16>, %[[DU:[^:]+]]: tensor<?x72xbf16>, %[[WG:[^:]+]]: tensor<200x200xbf16>, %[[WU:[^:]+]]: tensor<72x200xbf16>, %[[R:[^:]+]]: tensor<?x200xbf16>)
//   FUSED-NOT:   coda.gemm
//       FUSED:   %[[DX:.+]] = coda.gemm %{{.+}}, [%{{.+}}] + %{{.+}}, [%{{.+}}] inputs(%[[R]]) {b_layout = "kn"}
//   FUSED-NOT:   coda.gemm
//       FUSED:   return %[[DX]]

func.func @bf16(%dg: tensor<?x200xbf16>, %du: tensor<?x72xbf16>, %wg: tensor<200x200xbf16>, %wu: tensor<72x200xbf16>, %r: tensor<?x200xbf16>) -> tensor<?x200xbf16> {
  %g = coda.matmul %dg, %wg : (tensor<?x200xbf16>, tensor<200x200xbf16>) -> tensor<?x200xbf16>
  %u = coda.matmul %du, %wu : (tensor<?x72xbf16>, tensor<72x200xbf16>) -> tensor<?x200xbf16>
  %s = coda.add %u, %g : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  %dx = coda.add %r, %s : (tensor<?x200xbf16>, tensor<?x200xbf16>) -> tensor<?x200xbf16>
  return %dx : tensor<?x200xbf16>
}

// Three products summed by two adds: one GEMM over all three.
// FUSED-LABEL: func.func @three(
//   FUSED-NOT:   coda.gemm
//       FUSED:   coda.gemm %{{.+}}, [%{{.+}}] + %{{.+}}, [%{{.+}}] + %{{.+}}, [%{{.+}}] {b_layout = "kn"}
//   FUSED-NOT:   coda.gemm
//       FUSED:   return
func.func @three(%a: tensor<?x64xbf16>, %b: tensor<?x136xbf16>, %c: tensor<?x200xbf16>, %wa: tensor<64x136xbf16>, %wb: tensor<136x136xbf16>, %wc: tensor<200x136xbf16>) -> tensor<?x136xbf16> {
  %x = coda.matmul %a, %wa : (tensor<?x64xbf16>, tensor<64x136xbf16>) -> tensor<?x136xbf16>
  %y = coda.matmul %b, %wb : (tensor<?x136xbf16>, tensor<136x136xbf16>) -> tensor<?x136xbf16>
  %z = coda.matmul %c, %wc : (tensor<?x200xbf16>, tensor<200x136xbf16>) -> tensor<?x136xbf16>
  %s = coda.add %x, %y : (tensor<?x136xbf16>, tensor<?x136xbf16>) -> tensor<?x136xbf16>
  %t = coda.add %s, %z : (tensor<?x136xbf16>, tensor<?x136xbf16>) -> tensor<?x136xbf16>
  return %t : tensor<?x136xbf16>
}
