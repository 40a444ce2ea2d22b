#!/usr/bin/env bash
# Split-K of the weight gradients (bench/NOTES.md §45), on the GPU machine:
# every weight-gradient case of bench/gemm_cases/cases_wgrad.json checked
# against PyTorch and timed against cuBLAS, the unsplit ragged and odd-M
# checks again under compute-sanitizer memcheck, and the training pair's
# kernels at 4096 rows with the QKV weight gradient split and unsplit.
#
#   build machine: bash bench/gemm_kernel_check.sh   (or the wgrad cases only)
#                  bash bench/pair_ab.sh build build/ab/split
#                  # the same pair with the split pinned off:
#                  build/bin/coda-opt build/ab/split/pair.mlir \
#                    --coda-gpu-fuse-pipeline --coda-plan-kernels |
#                    sed 's/splits = 2 : i64/splits = 1 : i64/' > build/ab/unsplit/pair.mlir
#                  build/bin/coda-translate --coda-to-ptx build/ab/unsplit/pair.mlir \
#                    -o build/ab/unsplit/pair.ptx
#   GPU machine:   bash bench/split_k.sh LOG_DIR   (carry build/lib/libcoda_runtime.so,
#                  build/ab and bench/gemm_cases/out)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
logs="${1:?LOG_DIR}"
mkdir -p "$logs"
export CODA_RUNTIME_LIBRARY="${CODA_RUNTIME_LIBRARY:-$root/build/lib/libcoda_runtime.so}"
cases="$root/bench/gemm_cases"
python3 - "$cases" <<'PY'
import json, sys
cases = json.load(open(f"{sys.argv[1]}/cases_wgrad.json"))
for case in cases:
    case["ptx"] = f"{sys.argv[1]}/{case['ptx']}"
json.dump([c for c in cases if not c.get("time")],
          open(f"{sys.argv[1]}/out/cases_wgrad_checks.json", "w"))
PY
python3 "$root/bench/gemm_kernel_check.py" "$cases/cases_wgrad.json" \
  > "$logs/wgrad.txt" 2>&1 || echo "gemm_kernel_check.py exited $?"
tail -32 "$logs/wgrad.txt"
compute-sanitizer --tool memcheck python3 "$root/bench/gemm_kernel_check.py" \
  "$cases/out/cases_wgrad_checks.json" > "$logs/wgrad_memcheck.txt" 2>&1 ||
  echo "memcheck exited $?"
grep -h "ERROR SUMMARY" "$logs/wgrad_memcheck.txt"
for pair in unsplit split; do
  python3 "$root/bench/kernel_profile.py" "$root/build/ab/$pair/pair.ptx" \
    --rows 4096 > "$logs/profile4096_$pair.txt" 2>&1 ||
    echo "$pair: kernel_profile.py exited $?"
  echo "== $pair"
  grep -E "backward_gemm1 |^\| all|block.py times" "$logs/profile4096_$pair.txt"
done
