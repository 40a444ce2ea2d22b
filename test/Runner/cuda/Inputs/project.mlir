// One projection, y = x Wᵀ, in bf16 and in f16; and a function with
// attention, which --device cuda refuses.
func.func @bf16(%x: tensor<?x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

func.func @f16(%x: tensor<?x64xf16>, %w: tensor<64x64xf16>) -> tensor<?x64xf16> {
  %y = coda.linear %x, %w : (tensor<?x64xf16>, tensor<64x64xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

func.func @attend(%x: tensor<?x64xbf16>, %wq: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %q = coda.linear %x, %wq : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %a = coda.attention %q, %q, %q {num_heads = 1 : i64, num_kv_heads = 1 : i64, head_dim = 64 : i64, seq_len = 8 : i64, causal = true} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %a : tensor<?x64xbf16>
}
