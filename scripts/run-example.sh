#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then compile the bundled
# Llama-3-1B block into GEMM-epilogue programs, print what was fused, and
# check on the CPU that the fused program computes the same function.
# Usage: scripts/run-example.sh [FILE.mlir [ENTRY]]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CODA_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/llama3-1b-block.mlir}"
entry="${2:-block}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" coda-opt coda-translate coda-run

echo "== $(basename "$example"): what it holds"
"$build/bin/coda-translate" --coda-summary "$example"
echo
echo "== fusion (coda-fuse-pipeline)"
"$build/bin/coda-opt" "$example" --coda-fusion-report -o /dev/null
echo
echo "== CPU check: fused vs unfused, 37 rows, seed 1"
"$build/bin/coda-run" "$example" --entry "$entry" --rows 37 --seed 1 \
  --compare-with-unfused
