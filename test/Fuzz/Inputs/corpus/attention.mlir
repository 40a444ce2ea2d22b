func.func @attention(%q: tensor<?x256xbf16>, %k: tensor<?x128xbf16>, %v: tensor<?x128xbf16>) -> tensor<?x256xbf16> {
  %o = coda.attention %q, %k, %v {num_heads = 4 : i64, num_kv_heads = 2 : i64, head_dim = 64 : i64, seq_len = 128 : i64, causal = true} : (tensor<?x256xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x256xbf16>
  return %o : tensor<?x256xbf16>
}
