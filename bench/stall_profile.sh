#!/usr/bin/env bash
# A stall profile of one kernel of a compiled training pair, on the GPU
# machine (bench/NOTES.md §35): Nsight Compute samples the warps' states per
# instruction over one launch at 16384 rows (clocks left alone), exports the
# per-instruction table and summarizes it (bench/stall_summary.py).
#
#   bash bench/stall_profile.sh PAIR.ptx KERNEL OUT_DIR
#
# (carry build/lib/libcoda_runtime.so; CODA_RUNTIME_LIBRARY points at it.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptx="${1:?PAIR.ptx}" kernel="${2:?KERNEL}" out="${3:?OUT_DIR}"
mkdir -p "$out"
export CODA_RUNTIME_LIBRARY="${CODA_RUNTIME_LIBRARY:-$root/build/lib/libcoda_runtime.so}"
ncu --clock-control none --kernel-name "$kernel" --launch-count 1 \
  --section WarpStateStats --section SchedulerStats --section SourceCounters \
  --section LaunchStats --section Occupancy --section SpeedOfLight \
  --section MemoryWorkloadAnalysis -f -o "$out/$kernel" \
  python3 "$root/bench/kernel_profile.py" "$ptx" --once --rows 16384 \
  > "$out/ncu.log" 2>&1
ncu --import "$out/$kernel.ncu-rep" --page details > "$out/details.txt"
ncu --import "$out/$kernel.ncu-rep" --page source --csv --print-source sass \
  > "$out/source.csv"
python3 "$root/bench/stall_summary.py" "$out/source.csv" | tee "$out/summary.txt"
