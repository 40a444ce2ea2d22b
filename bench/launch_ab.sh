#!/usr/bin/env bash
# One compiled training pair timed with dependent launches (the runtime's
# default) and with CODA_RUNTIME_SERIAL_LAUNCH=1, in alternating
# bench/block.py processes (bench/pair_ab.sh's block part), so that the two
# launch modes of the same PTX compare within one lease.
#
#   bash bench/launch_ab.sh DIR LOG_DIR [ROUNDS]   # GPU machine; DIR from
#                                                  # `bench/pair_ab.sh build`;
#                                                  # carry DIR and
#                                                  # build/lib/libcoda_runtime.so;
#                                                  # rows: LAUNCH_AB_ROWS
#                                                  # (default 4096 16384);
#                                                  # logs in LOG_DIR/MODE<round>
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?DIR}"
logs="${2:?LOG_DIR}"
rounds="${3:-2}"
export PAIR_AB_PARTS=block
unset PAIR_AB_BLOCK_RUNS
export PAIR_AB_ROWS="${LAUNCH_AB_ROWS:-4096 16384}"
for round in $(seq "$rounds"); do
  echo "== dependent, round $round"
  bash "$root/bench/pair_ab.sh" run "$logs/dependent$round" "$dir"
  echo "== serial, round $round"
  CODA_RUNTIME_SERIAL_LAUNCH=1 bash "$root/bench/pair_ab.sh" run "$logs/serial$round" "$dir"
done
