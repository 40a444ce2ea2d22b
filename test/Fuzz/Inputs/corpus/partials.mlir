func.func @partials(%x: tensor<?x64xf32>, %t: tensor<?xi64>, %g: tensor<64xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<f32>, tensor<?x64xf32>) {
  %s = coda.partial_reduce %x {kind = "sum", tile_n = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x2xf32>
  %q = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  %m, %r = coda.reduce_partials %s, %q {kind = "mean_rstd", count = 64 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x2xf32>, tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  %l = coda.partial_reduce %x {kind = "lse"} : (tensor<?x64xf32>) -> tensor<?x?xf32>
  %p = coda.partial_gather %x, %t : (tensor<?x64xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %loss = coda.cross_entropy_from_partials %l, %p, %t {reduction = "sum"} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<f32>
  %h, %r2 = coda.norm_statistics %x, %g {epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> (tensor<?x64xf32>, tensor<?x1xf32>)
  %o = coda.add_outer %h, %r2, %g : (tensor<?x64xf32>, tensor<?x1xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  return %m, %r, %loss, %o : tensor<?x1xf32>, tensor<?x1xf32>, tensor<f32>, tensor<?x64xf32>
}
