func.func @cross_entropy(%l: tensor<16x64xf32>, %t: tensor<16xi32>) -> (tensor<f32>, tensor<16xf32>) {
  %s = coda.cross_entropy %l, %t {ignore_index = -1 : i64, reduction = "sum"} : (tensor<16x64xf32>, tensor<16xi32>) -> tensor<f32>
  %n = coda.cross_entropy %l, %t {reduction = "none"} : (tensor<16x64xf32>, tensor<16xi32>) -> tensor<16xf32>
  return %s, %n : tensor<f32>, tensor<16xf32>
}
