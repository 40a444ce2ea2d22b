// A plain GEMM whose N and K are not tile multiples: N = 200 (a 128-column
// tile and a 72-column one), K = 136 (two full k-tiles and a partial one).
func.func @plain(%x: tensor<?x136xbf16>, %w: tensor<200x136xbf16>) -> tensor<?x200xbf16> {
  %y = coda.linear %x, %w : (tensor<?x136xbf16>, tensor<200x136xbf16>) -> tensor<?x200xbf16>
  return %y : tensor<?x200xbf16>
}
