#!/usr/bin/env bash
# Two or more compiled training pairs of the canonical block, each through
# bench/block.py (correctness against PyTorch, then forward+backward time
# against eager and the GEMM floor; --skip-compile, as torch.compile's first
# compile of each row count takes minutes on a fresh machine and does not
# tell two compilers apart) and bench/kernel_profile.py
# (per-kernel time at PAIR_AB_PROFILE_ROWS rows, default 16384, twice,
# alternating pairs, the second round in reverse order), in one lease, plus
# compute-sanitizer memcheck of each pair at ragged row counts
# (PAIR_AB_MEMCHECK_ROWS, default 37 1000) and
# bench/stress_pair.py (3000 launches of each function at 37, 1000 and
# 4097 rows: a race between warpgroups can hang one launch in thousands).
#
#   bash bench/pair_ab.sh build DIR               # build machine: block.ptx and
#                                                 # pair.ptx from build/bin into DIR,
#                                                 # and the runtime library beside them
#   bash bench/pair_ab.sh run LOG_DIR DIR...      # GPU machine (carry the DIRs);
#                                                 # each pair runs on its DIR's
#                                                 # libcoda_runtime.so, else on
#                                                 # CODA_RUNTIME_LIBRARY (default
#                                                 # build/lib/libcoda_runtime.so);
#                                                 # block.py at PAIR_AB_ROWS rows
#                                                 # (default 4097 16384 32768);
#                                                 # ends with the kernels side by
#                                                 # side (bench/profile_compare.py:
#                                                 # the kernels of at least
#                                                 # PAIR_AB_MIN_US us, default 100),
#                                                 # also in LOG_DIR/profiles.md;
#                                                 # PAIR_AB_PARTS picks the parts
#                                                 # (default "block profile memcheck
#                                                 # stress"),
#                                                 # so one lease's calls can split them;
#                                                 # PAIR_AB_BLOCK_RUNS=N runs block.py
#                                                 # N times per pair, alternating
#                                                 # (logs in LOG_DIR/NAME/runI)
#                                                 # and their spread per pair
#                                                 # (bench/block_summary.py,
#                                                 # LOG_DIR/block_summary.md)
#
# To compare two compilers, build each and run `build` into its own DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
build)
  dir="${2:?DIR}"
  mkdir -p "$dir"
  "$root/build/bin/coda-translate" --coda-to-ptx \
    "$root/examples/llama3-1b-block.mlir" -o "$dir/block.ptx"
  "$root/build/bin/coda-opt" "$root/examples/llama3-1b-block.mlir" \
    --coda-generate-backward -o "$dir/pair.mlir"
  "$root/build/bin/coda-translate" --coda-to-ptx "$dir/pair.mlir" \
    -o "$dir/pair.ptx"
  # The runtime that reads this compiler's launch plans.
  cp "$root/build/lib/libcoda_runtime.so" "$dir/"
  ;;
run)
  logs="${2:?LOG_DIR}"
  shift 2
  default_runtime="${CODA_RUNTIME_LIBRARY:-$root/build/lib/libcoda_runtime.so}"
  # Runs a command with the runtime of pair directory $1.
  with_runtime() {
    local runtime="$1/libcoda_runtime.so"
    [ -f "$runtime" ] || runtime="$default_runtime"
    shift
    CODA_RUNTIME_LIBRARY="$runtime" "$@"
  }
  parts=" ${PAIR_AB_PARTS:-block profile memcheck stress} "
  for dir in "$@"; do mkdir -p "$logs/$(basename "$dir")"; done
  # block.py PAIR_AB_BLOCK_RUNS times per pair (default 1), alternating
  # pairs, every second run in the reverse order: the step moves by 10-20
  # us from process to process, as much as many changes do.
  reversed=()
  for dir in "$@"; do reversed=("$dir" "${reversed[@]}"); done
  for run in $(seq "${PAIR_AB_BLOCK_RUNS:-1}"); do
    [[ $parts == *" block "* ]] || break
    order=("$@")
    [ $((run % 2)) = 0 ] && order=("${reversed[@]}")
    for dir in "${order[@]}"; do
      name="$(basename "$dir")"
      out="$logs/$name"
      [ "${PAIR_AB_BLOCK_RUNS:-1}" = 1 ] || out="$logs/$name/run$run"
      mkdir -p "$out"
      with_runtime "$dir" python3 "$root/bench/block.py" "$dir/block.ptx" --training "$dir/pair.ptx" \
        --skip-forward --skip-compile --rows ${PAIR_AB_ROWS:-4097 16384 32768} --out "$out" \
        > "$out/block.log" 2>&1 || echo "$name: block.py exited $?"
      echo "== $name${PAIR_AB_BLOCK_RUNS:+, run $run}"
      tail -5 "$out/block.log"
    done
  done
  # The block.py processes of every pair: the least, median and greatest
  # CODA / floor ratio per row count.
  names=()
  for dir in "$@"; do names+=("$(basename "$dir")"); done
  if [[ $parts == *" block "* ]]; then
    python3 "$root/bench/block_summary.py" "$logs" "${names[@]}" |
      tee "$logs/block_summary.md" || echo "block_summary.py: a pair failed"
  fi
  # The kernel profiles twice, alternating pairs, the second round in the
  # reverse order (whichever runs second in a round runs hotter or cooler),
  # so their spread shows.
  for round in 1 2; do
    [[ $parts == *" profile "* ]] || break
    order=("$@")
    [ "$round" = 2 ] && order=("${reversed[@]}")
    for dir in "${order[@]}"; do
      name="$(basename "$dir")"
      with_runtime "$dir" python3 "$root/bench/kernel_profile.py" "$dir/pair.ptx" \
        --rows ${PAIR_AB_PROFILE_ROWS:-16384} \
        > "$logs/$name/profile$round.txt" 2>&1 ||
        echo "$name: kernel_profile.py exited $?"
    done
  done
  for dir in "$@"; do
    [[ $parts == *" memcheck "* ]] || break
    name="$(basename "$dir")"
    with_runtime "$dir" compute-sanitizer --tool memcheck python3 "$root/bench/kernel_profile.py" --dependent \
      "$dir/pair.ptx" --once --rows ${PAIR_AB_MEMCHECK_ROWS:-37 1000} \
      > "$logs/$name/memcheck.txt" 2>&1 ||
      echo "$name: memcheck failed (see $logs/$name/memcheck.txt)"
    grep -h "ERROR SUMMARY" "$logs/$name/memcheck.txt" | sed "s/^/$name: /" || true
  done
  for dir in "$@"; do
    [[ $parts == *" stress "* ]] || break
    name="$(basename "$dir")"
    with_runtime "$dir" python3 "$root/bench/stress_pair.py" "$dir/pair.ptx" --rows 37 1000 4097 \
      --steps 3000 > "$logs/$name/stress.txt" 2>&1 ||
      echo "$name: stress_pair.py exited $? (see $logs/$name/stress.txt)"
    grep -h "^hang" "$logs/$name/stress.txt" | sed "s/^/$name: /" || true
  done
  # The kernels of every pair side by side, round by round.
  [[ $parts == *" profile "* ]] || exit 0
  python3 "$root/bench/profile_compare.py" "$logs" "${names[@]}" \
      --min-us "${PAIR_AB_MIN_US:-100}" |
    tee "$logs/profiles.md"
  ;;
*)
  echo "usage: $0 build DIR | run LOG_DIR DIR..." >&2
  exit 2
  ;;
esac
