#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then compile the bundled
# Llama-3-1B block into GEMM-epilogue programs, print what was fused, check
# on the CPU that the fused program computes the same function, derive its
# backward and check its gradients on the CPU, and (with
# the CUDA toolkit at CUDA_ROOT, default /usr/local/cuda) generate the
# sm_90a kernels and launch plans of the function and of its training pair
# into build/example/.
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
echo "== fusion (coda-gpu-fuse-pipeline)"
"$build/bin/coda-opt" "$example" --coda-fusion-report -o /dev/null
echo
echo "== CPU check: fused vs unfused, 37 rows, seed 1"
"$build/bin/coda-run" "$example" --entry "$entry" --rows 37 --seed 1 \
  --compare-with-unfused

echo
echo "== training: the backward (coda-generate-backward), checked on the CPU"
# Whole-function report of the derived backward; the first lines say how
# many kernels it takes before and after fusion.
"$build/bin/coda-opt" "$example" --coda-generate-backward \
    --coda-fusion-report -o /dev/null |
  awk '/^fusion report for @'"$entry"'_backward/{on=1} on&&/^fusion report for @/&&!/_backward/{on=0} on' |
  sed -n '1,3p'
# About a minute on one core for the canonical block.
"$build/bin/coda-run" "$example" --entry "$entry" --rows 9 --seed 1 \
  --check-gradients

cuda="${CUDA_ROOT:-/usr/local/cuda}"
if [[ -d "$cuda" ]]; then
  echo
  echo "== Hopper kernels (coda-translate --coda-to-ptx)"
  mkdir -p "$build/example"
  name="$(basename "${example%.mlir}")"
  CUDA_ROOT="$cuda" "$build/bin/coda-translate" --coda-to-ptx "$example" \
    -o "$build/example/$name.ptx"
  plans=("$build/example/$name.plan.json")
  # The training pair too: its forward's and its backward's kernels, when
  # the generator takes every op of the backward.
  "$build/bin/coda-opt" "$example" --coda-generate-backward \
    -o "$build/example/$name-pair.mlir"
  if CUDA_ROOT="$cuda" "$build/bin/coda-translate" --coda-to-ptx \
      "$build/example/$name-pair.mlir" -o "$build/example/$name-pair.ptx" \
      2>"$build/example/$name-pair.log"; then
    plans+=("$build/example/$name-pair.plan.json")
  else
    echo "(the training pair's backward has no GPU kernels yet:"
    echo " $(head -n1 "$build/example/$name-pair.log"))"
  fi
  python3 - "${plans[@]}" <<'PLAN'
import json, sys
functions = [f for path in sys.argv[1:] for f in json.load(open(path))["functions"]]
seen = set()
for function in functions:
    if function["name"] in seen:
        continue
    seen.add(function["name"])
    print(f"@{function['name']}: {len(function['kernels'])} steps")
    for k in function["kernels"]:
        if "boundary" in k:
            print(f"  {k['boundary']} (run by the caller)")
            continue
        if "alias" in k:
            print(f"  {k['alias']} is {k['of']} reshaped (no kernel)")
            continue
        grid = "persistent" if k["persistent"] else "grid"
        # 2^31 - 1 rows per tile: one tile row over any row count.
        rows = "all" if k["rows_per_tile"] == 2**31 - 1 else k["rows_per_tile"]
        # A split kernel runs up to `splits` units a tile: a weight gradient
        # (its own static rows) splits every tile's reduction over the
        # function's rows, another GEMM its last row tile's k-tiles.
        split = ""
        if k.get("splits", 1) > 1:
            what = "rows" if k["rows"] > 0 else "last row tile"
            split = f", {what} split up to {k['splits']}x"
        # A kernel of half the rows by twice the columns, launched where its
        # tiles fill fewer rounds.
        wide = ""
        if "wide" in k:
            wide = (f", {k['wide']['rows_per_tile']}-row x "
                    f"{k['wide']['tiles_n']} where fewer rounds")
        # Launched while the kernel before it finishes (it waits for it).
        dependent = ", dependent launch" if k.get("dependent_launch") else ""
        print(f"  {k['name']:<16} {k['block']} threads, {rows}-row x "
              f"{k['tiles_n']} tiles ({grid}{split}{wide}{dependent}), "
              f"{k['shared_bytes'] // 1024} KiB shared")
PLAN
  echo "PTX and launch plans in $build/example/"
else
  echo
  echo "== no CUDA toolkit at $cuda: skipping the Hopper kernels"
fi
