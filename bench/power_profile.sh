#!/usr/bin/env bash
# The training pair's kernels cold and sustained, with the GPU's clocks and
# power sampled every 50 ms (bench/NOTES.md §46), on the GPU machine:
#
#   bash bench/power_profile.sh PAIR.ptx LOG_DIR    (carry build/lib/libcoda_runtime.so
#                                                    and PAIR.ptx with its plan)
#
# bench/kernel_profile.py runs at 16384 rows for 300 steps, each after the
# L2 flush do_bench does (about 3 s of back-to-back steps, as block.py's
# timings run), then for 20 steps, then at 4096 rows for 300 steps; each
# section's kernel sums go to LOG_DIR/profile_<rows>_<steps>.txt and the
# samples taken while the GPU draws more than 300 W are summarized: median SM
# clock, median power, and how many report the software power cap
# (clocks_throttle_reasons 0x4).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pair="${1:?PAIR.ptx}"
logs="${2:?LOG_DIR}"
mkdir -p "$logs"
export CODA_RUNTIME_LIBRARY="${CODA_RUNTIME_LIBRARY:-$root/build/lib/libcoda_runtime.so}"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active \
  --format=csv,noheader,nounits -lms 50 > "$logs/clocks.csv" &
sampler=$!
sections=()
for run in "16384 300 --flush" "16384 20" "4096 300 --flush"; do
  set -- $run
  start=$(date +%H:%M:%S.%N)
  python3 "$root/bench/kernel_profile.py" "$pair" --rows "$1" --steps "$2" ${3:-} \
    > "$logs/profile_$1_$2.txt" 2>&1 || echo "kernel_profile.py exited $?"
  sections+=("$1 rows, $2 steps ${3:-}|$start|$(date +%H:%M:%S.%N)")
  echo "== $1 rows, $2 steps ${3:-}"
  grep -E "^\| all|block.py times|CUDA graph|GEMM floor" "$logs/profile_$1_$2.txt"
done
kill "$sampler"
python3 - "$logs/clocks.csv" "${sections[@]}" <<'PY'
import csv, sys
samples = list(csv.reader(open(sys.argv[1])))
for section in sys.argv[2:]:
    name, start, end = section.split("|")
    busy = [s for s in samples
            if start <= s[0].strip()[11:] < end and float(s[2]) > 300]
    if not busy:
        print(f"{name}: no samples above 300 W")
        continue
    clocks = sorted(int(s[1]) for s in busy)
    watts = sorted(float(s[2]) for s in busy)
    capped = sum(int(s[3], 16) & 0x4 != 0 for s in busy)
    print(f"{name}: {len(busy)} samples above 300 W; SM MHz median "
          f"{clocks[len(clocks) // 2]} (min {clocks[0]}, max {clocks[-1]}); "
          f"W median {watts[len(watts) // 2]:.0f}, max {watts[-1]:.0f}; "
          f"power cap in {capped}")
PY
