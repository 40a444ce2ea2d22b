#!/usr/bin/env bash
# Wall time of `coda-translate --coda-to-ptx` on the canonical block and on
# its training pair (coda-opt --coda-generate-backward), RUNS times each
# (default 9), for one or more coda-translate binaries in turn, so that two
# builds are compared on the same machine state; prints min, median and max
# in seconds.
#
#   bash bench/compile_time.sh [CODA_TRANSLATE...]   # default build/bin/coda-translate
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-9}"
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("$root/build/bin/coda-translate")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
block="$root/examples/llama3-1b-block.mlir"
"$root/build/bin/coda-opt" "$block" --coda-generate-backward -o "$work/pair.mlir"

for ((run = 0; run < runs; ++run)); do
  for index in "${!binaries[@]}"; do
    for input in "$block" "$work/pair.mlir"; do
      start=$EPOCHREALTIME
      "${binaries[$index]}" --coda-to-ptx "$input" -o "$work/out.ptx"
      end=$EPOCHREALTIME
      echo "$index $(basename "$input") $start $end"
    done
  done
done | python3 -c '
import collections, statistics, sys
binaries = sys.argv[1:]
times = collections.defaultdict(list)
for line in sys.stdin:
    index, name, start, end = line.split()
    times[(int(index), name)].append(float(end) - float(start))
print("| coda-translate | input | runs | min s | median s | max s |")
print("|---|---|---|---|---|---|")
for (index, name), values in sorted(times.items()):
    print(f"| {binaries[index]} | {name} | {len(values)} | {min(values):.2f} "
          f"| {statistics.median(values):.2f} | {max(values):.2f} |")
' "${binaries[@]}"
