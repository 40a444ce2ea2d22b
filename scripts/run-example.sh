#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then compile the bundled
# Llama-3-1B block and print what it holds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CODA_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/llama3-1b-block.mlir}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" coda-opt coda-translate

echo "== verify and canonicalize $(basename "$example")"
"$build/bin/coda-opt" "$example" --canonicalize -o /dev/null
echo "== summary"
"$build/bin/coda-translate" --coda-summary "$example"
