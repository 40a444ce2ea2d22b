#!/usr/bin/env bash
# One compiled training pair timed with dependent launches (the runtime's
# default) and with CODA_RUNTIME_SERIAL_LAUNCH=1, in alternating
# bench/block.py processes (--skip-forward --skip-compile), so that the two
# launch modes of the same PTX compare within one lease.
#
#   bash bench/launch_ab.sh DIR LOG_DIR [ROUNDS]   # GPU machine; DIR from
#                                                  # `bench/pair_ab.sh build`;
#                                                  # carry DIR and
#                                                  # build/lib/libcoda_runtime.so;
#                                                  # rows: LAUNCH_AB_ROWS
#                                                  # (default 4096 16384)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?DIR}"
logs="${2:?LOG_DIR}"
rounds="${3:-2}"
export CODA_RUNTIME_LIBRARY="$root/build/lib/libcoda_runtime.so"
for round in $(seq "$rounds"); do
  for mode in dependent serial; do
    out="$logs/$mode$round"
    mkdir -p "$out"
    if [ "$mode" = serial ]; then
      export CODA_RUNTIME_SERIAL_LAUNCH=1
    else
      unset CODA_RUNTIME_SERIAL_LAUNCH
    fi
    python3 "$root/bench/block.py" "$dir/block.ptx" --training "$dir/pair.ptx" \
      --skip-forward --skip-compile --rows ${LAUNCH_AB_ROWS:-4096 16384} \
      --out "$out" > "$out/block.log" 2>&1 || echo "$mode$round: block.py exited $?"
    echo "== $mode, round $round"
    tail -n +3 "$out/block_training.md"
  done
done
