func.func @gemm(%y: tensor<?x64xbf16>, %wg: tensor<16x64xbf16>, %wu: tensor<16x64xbf16>, %res: tensor<?x16xbf16>, %r: tensor<?x1xf32>) -> (tensor<?x16xbf16>, tensor<?x?xf32>) {
  %x, %p = coda.gemm %y, [%wg, %wu] inputs(%res, %r) : (tensor<?x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<?x16xbf16>, tensor<?x1xf32>) -> (tensor<?x16xbf16>, tensor<?x?xf32>) {
  ^bb0(%acc: tensor<?x32xf32>, %a: tensor<?x16xf32>, %s: tensor<?x1xf32>):
    %m = coda.mul %acc, %s : (tensor<?x32xf32>, tensor<?x1xf32>) -> tensor<?x32xf32>
    %g = coda.slice %m {offset = 0 : i64, size = 16 : i64} : (tensor<?x32xf32>) -> tensor<?x16xf32>
    %u = coda.slice %m {offset = 16 : i64, size = 16 : i64} : (tensor<?x32xf32>) -> tensor<?x16xf32>
    %h = coda.swiglu %g, %u : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    %o = coda.add %h, %a : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    %q = coda.partial_reduce %o {kind = "sum_squares"} : (tensor<?x16xf32>) -> tensor<?x?xf32>
    coda.yield %o, %q : tensor<?x16xf32>, tensor<?x?xf32>
  }
  return %x, %p : tensor<?x16xbf16>, tensor<?x?xf32>
}
