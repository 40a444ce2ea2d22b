// RUN: not coda-translate --coda-to-ptx %s -o /dev/null 2>&1 | FileCheck %s

// A function without GEMMs has no kernel to generate.
// CHECK: error: no coda.gemm to generate a kernel for
func.func @no_gemm(%a: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.silu %a : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
