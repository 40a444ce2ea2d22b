// Attention between two projections: the launch plan leaves it to the
// caller as a boundary step.
func.func @attend(%x: tensor<?x64xbf16>, %wq: tensor<64x64xbf16>, %wo: tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  %q = coda.linear %x, %wq : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  %a = coda.attention %q, %q, %q {num_heads = 1 : i64, num_kv_heads = 1 : i64, head_dim = 64 : i64, seq_len = 8 : i64, causal = true} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %o = coda.linear %a, %wo : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16>
  return %o : tensor<?x64xbf16>
}
