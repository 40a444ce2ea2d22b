func.func @two(%x: tensor<?x64xbf16>, %w: tensor<128x64xbf16>, %v: tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  %y = coda.gemm %x, [%w] : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16> {
  ^bb0(%acc: tensor<?x128xf32>):
    coda.yield %acc : tensor<?x128xf32>
  }
  %z = coda.gemm %y, [%v] : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  return %z : tensor<?x64xbf16>
}
