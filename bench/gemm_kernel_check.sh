#!/usr/bin/env bash
# Compiles the GEMM cases of bench/gemm_cases, the canonical block
# (examples/llama3-1b-block.mlir) and the GPT-2 MLP (examples/gpt2-mlp.mlir,
# with its standalone LayerNorm statistics) to PTX and launch plans, once per
# schedule of the two consumer warpgroups, into
# bench/gemm_cases/out/<schedule>/, and prints the wall time of each
# `coda-translate --coda-to-ptx` from the graph level (the default
# schedule). On the GPU machine, `python3 bench/gemm_kernel_check.py
# bench/gemm_cases/cases.json` then checks each kernel against PyTorch and
# times it against cuBLAS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
cases="$root/bench/gemm_cases"
for schedule in pingpong cooperative; do
  mkdir -p "$cases/out/$schedule"
  for f in "$cases"/*.mlir "$root/examples/llama3-1b-block.mlir" \
           "$root/examples/gpt2-mlp.mlir"; do
    out="$cases/out/$schedule/$(basename "${f%.mlir}").ptx"
    "$bin/coda-opt" "$f" --coda-fuse-pipeline \
        --convert-coda-to-gpu="schedule=$schedule" |
      "$bin/coda-translate" --coda-to-ptx - -o "$out"
  done
done
echo "coda-translate --coda-to-ptx wall time, graph level to PTX:"
for f in "$cases"/*.mlir "$root/examples/llama3-1b-block.mlir"; do
  start=$EPOCHREALTIME
  "$bin/coda-translate" --coda-to-ptx "$f" -o /dev/null
  end=$EPOCHREALTIME
  python3 -c "print(f'  {\"$(basename "$f")\":<28} {$end - $start:6.2f} s')"
done
