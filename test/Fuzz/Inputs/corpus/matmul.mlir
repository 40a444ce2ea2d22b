func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %y = coda.matmul %a, %b : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}
