#!/usr/bin/env bash
# coda-run --device cuda and the embedding example on a GPU machine, with the
# tools of scripts/package-gpu-tools.sh (the GPU machine needs no MLIR).
#
#   bash bench/coda_run_cuda_check.sh [GPU_TOOLS_DIR] [LOG_DIR] [PAIR.mlir...]
#
# Each PAIR.mlir (a path from the repository root) is a training pair
# (`coda-opt examples/llama3-1b-block.mlir --coda-generate-backward -o
# PAIR.mlir` on the build machine, or the same of examples/gpt2-mlp.mlir);
# its backward function (the one named *_backward) joins the runs, checked
# at 77 rows (the CPU reference of the block's backward takes about twice
# its forward's time) and timed at 4097.
#
# Every function runs at a row count that is no tile multiple, on random
# inputs, against the CPU reference (--compare-with-reference); the examples
# are also timed (--bench) at 4097 rows. Exits 1 if any run fails; one log per run in
# LOG_DIR and a summary table on stdout.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${1:-$root/build/gpu-tools}"
logs="${2:-$root/build/coda-run-cuda-logs}"
mkdir -p "$logs"

# file entry rows [extra coda-run flags]. The CPU reference of the whole
# block takes about 20 s per 100 rows, so the examples are checked at a few
# hundred rows and timed, without the check, at 4097. The runner tests left
# out have shapes the kernel generator refuses (RoPE heads of 32 columns, one
# GEMM feeding results of different column ranges).
runs=(
  "examples/llama3-1b-block.mlir block 300 --compare-with-reference"
  "examples/llama3-1b-block.mlir block 4097 --bench"
  "examples/gpt2-mlp.mlir mlp 1000 --compare-with-reference"
  "examples/gpt2-mlp.mlir mlp 4097 --bench"
  "test/Runner/example-gpt2-mlp-small.mlir bf16 777 --compare-with-reference"
  "test/Runner/gelu-bias.mlir bf16_tanh 515 --compare-with-reference"
  "test/Runner/gelu-bias.mlir bf16_none 515 --compare-with-reference"
  "test/Runner/layer-norm-after-gemm.mlir bf16 515 --compare-with-reference"
  "test/Runner/layer-norm-linear-bias.mlir bf16 515 --compare-with-reference"
  "test/Runner/partial-tiles.mlir bf16_norm 515 --compare-with-reference"
  "test/Runner/residual-rms-norm-gemm.mlir bf16 515 --compare-with-reference"
  "test/Runner/swiglu-merged.mlir bf16 515 --compare-with-reference"
  "test/Runner/summed-products.mlir bf16 515 --compare-with-reference"
  "test/Runner/summed-products.mlir three 515 --compare-with-reference"
  "test/Runner/saved-norm-scales.mlir standalone 515 --compare-with-reference"
  "test/Runner/saved-norm-scales.mlir beside_gradient 515 --compare-with-reference"
  "test/Runner/norm-gradient-epilogue.mlir bf16 515 --compare-with-reference"
  "test/Runner/two-consumers-gemm.mlir bf16 515 --compare-with-reference"
  "test/Runner/linear-grads.mlir bf16 515 --compare-with-reference"
  "test/Runner/linear-grads.mlir bf16 4097 --compare-with-reference --bench"
  "test/Runner/linear-grads.mlir bf16_silu 515 --compare-with-reference"
  "test/Runner/lse-partials.mlir lse 515 --compare-with-reference"
  "test/Runner/lse-partials.mlir lse_wide 37 --compare-with-reference"
)

for pair in "${@:3}"; do
  backward="$(grep -o 'func.func @[A-Za-z0-9_]*_backward' "$root/$pair" | head -n1)"
  backward="${backward#func.func @}"
  [ -n "$backward" ] || { echo "$pair: no *_backward function" >&2; exit 2; }
  runs+=("$pair $backward 77 --compare-with-reference"
         "$pair $backward 4097 --bench")
done

failed=0
printf '| %-44s | %-10s | %5s | %-6s | %s\n' file entry rows result "median (--bench)"
for spec in "${runs[@]}"; do
  read -r file entry rows extra <<<"$spec"
  log="$logs/$(basename "$file" .mlir)-$entry-$rows.log"
  "$tools/bin/coda-run" "$root/$file" --entry "$entry" --rows "$rows" --seed 7 \
      --device cuda ${extra:-} >"$log" 2>&1
  rc=$?
  result=ok
  if [ "$rc" -ne 0 ]; then result="exit $rc"; failed=1; fi
  median="$(grep -o 'median [0-9.]* ms' "$log" | head -n1)"
  printf '| %-44s | %-10s | %5s | %-6s | %s\n' "$file" "$entry" "$rows" "$result" "$median"
done

log="$logs/coda-embed.log"
if "$tools/bin/coda-embed" "$root/examples/llama3-1b-block.mlir" >"$log" 2>&1 &&
    grep -q "^ran " "$log"; then
  echo "coda-embed examples/llama3-1b-block.mlir: $(grep '^ran ' "$log")"
else
  echo "coda-embed examples/llama3-1b-block.mlir: FAILED (see $log)"
  failed=1
fi
exit "$failed"
