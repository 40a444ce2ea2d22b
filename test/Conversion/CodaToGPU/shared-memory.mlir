// RUN: coda-opt %s --convert-coda-to-gpu="stages=5" --verify-diagnostics

// Five 48 KiB stages (a 256x64 A box and a 128x64 B box each) exceed the
// 227 KiB of shared memory of a CTA.
func.func @ring(%x: tensor<?x64xbf16>, %w: tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{a ring of 5 stages of 48 KiB needs 241 KiB of shared memory; a CTA has 227 KiB}}
  %y = coda.gemm %x, [%w] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  return %y : tensor<?x128xbf16>
}
