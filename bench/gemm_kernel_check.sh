#!/usr/bin/env bash
# Compiles the GEMM cases of bench/gemm_cases to PTX with coda-translate
# (on the build machine) into bench/gemm_cases/out/. On the GPU machine,
# `python3 bench/gemm_kernel_check.py bench/gemm_cases/cases.json` then
# checks each kernel against PyTorch and times it against cuBLAS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cases="$root/bench/gemm_cases"
mkdir -p "$cases/out"
for f in "$cases"/*.mlir; do
  "$root/build/bin/coda-translate" --coda-to-ptx "$f" \
    -o "$cases/out/$(basename "${f%.mlir}").ptx"
done
ls -la "$cases/out"
