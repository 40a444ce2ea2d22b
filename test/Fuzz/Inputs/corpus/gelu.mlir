func.func @gelu(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = coda.gelu %x {approximate = "tanh"} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %z = coda.gelu %y : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %z : tensor<?x64xf32>
}
