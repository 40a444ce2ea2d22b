func.func @gemm_products(%dg: tensor<?x64xbf16>, %du: tensor<?x32xbf16>, %wg: tensor<64x16xbf16>, %wu: tensor<32x16xbf16>, %r: tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  %dx = coda.gemm %dg, [%wg] + %du, [%wu] inputs(%r) {b_layout = "kn"} : (tensor<?x64xbf16>, tensor<?x32xbf16>, tensor<64x16xbf16>, tensor<32x16xbf16>, tensor<?x16xbf16>) -> tensor<?x16xbf16> {
  ^bb0(%acc: tensor<?x16xf32>, %ri: tensor<?x16xf32>):
    %s = coda.add %acc, %ri : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    coda.yield %s : tensor<?x16xf32>
  }
  return %dx : tensor<?x16xbf16>
}
