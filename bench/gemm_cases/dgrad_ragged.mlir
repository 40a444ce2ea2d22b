// A dgrad product whose sizes are no tile multiples: K = 136 k-rows of W
// (the last k-tile half past the end), N = 200 columns (the last 128-column
// box's second half mostly past the end).
func.func @dgrad(%dy: tensor<?x136xbf16>, %w: tensor<136x200xbf16>) -> tensor<?x200xbf16> {
  %dx = coda.matmul %dy, %w : (tensor<?x136xbf16>, tensor<136x200xbf16>) -> tensor<?x200xbf16>
  return %dx : tensor<?x200xbf16>
}
