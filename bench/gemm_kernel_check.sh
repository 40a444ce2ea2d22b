#!/usr/bin/env bash
# Compiles the GEMM cases of bench/gemm_cases and the canonical block
# (examples/llama3-1b-block.mlir) to PTX and launch plans with
# coda-translate (on the build machine) into bench/gemm_cases/out/. On the
# GPU machine, `python3 bench/gemm_kernel_check.py
# bench/gemm_cases/cases.json` then checks each kernel against PyTorch and
# times it against cuBLAS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cases="$root/bench/gemm_cases"
mkdir -p "$cases/out"
for f in "$cases"/*.mlir "$root/examples/llama3-1b-block.mlir"; do
  out="$cases/out/$(basename "${f%.mlir}").ptx"
  start=$(date +%s.%N)
  "$root/build/bin/coda-translate" --coda-to-ptx "$f" -o "$out"
  end=$(date +%s.%N)
  printf '%-28s %6.2f s\n' "$(basename "$f")" "$(echo "$end - $start" | bc)"
done
