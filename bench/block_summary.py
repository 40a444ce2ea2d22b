"""The spread of several block.py processes per compiled pair, from the
records `bench/pair_ab.sh run` leaves (LOG_DIR/NAME/block_training.json, or
LOG_DIR/NAME/runI/block_training.json with PAIR_AB_BLOCK_RUNS > 1; the
forward's block.json likewise with --forward).

  python3 bench/block_summary.py LOG_DIR NAME... [--forward]

Prints one markdown table: a row per pair and row count, with the GPU the
records name (block.py writes torch's device name), the number of
processes, the median CODA and GEMM-floor times, and the least, median and
greatest CODA / floor ratio over the processes (each ratio measured within
one process). A single process's ratio moves by 1-2% from process to
process (bench/NOTES.md §46), so a target is met when the median is. Exits
1 when a pair has no records, or a record failed its correctness check.
"""
import argparse
import glob
import json
import os
import statistics
import sys


def read_records(directory, file_name):
    """The records of every run under `directory`, run order, each with the
    device of its file ("?" where the file names none)."""
    paths = sorted(glob.glob(os.path.join(directory, "run*", file_name)),
                   key=lambda p: int(os.path.basename(os.path.dirname(p))[3:]))
    single = os.path.join(directory, file_name)
    if not paths and os.path.exists(single):
        paths = [single]
    records = []
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        for record in run["records"]:
            records.append(dict(record, device=run.get("device", "?")))
    return records


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("logs")
    parser.add_argument("names", nargs="+")
    parser.add_argument("--forward", action="store_true",
                        help="the forward's block.json instead of "
                        "block_training.json")
    options = parser.parse_args()
    file_name = "block.json" if options.forward else "block_training.json"

    failed = False
    print("| pair | M | device | processes | CODA ms (median) | floor ms (median) "
          "| CODA / floor min | median | max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in options.names:
        records = read_records(os.path.join(options.logs, name), file_name)
        if not records:
            print(f"{name}: no {file_name} under "
                  f"{os.path.join(options.logs, name)}", file=sys.stderr)
            failed = True
            continue
        by_rows = {}
        for record in records:
            if not record.get("ok", False):
                print(f"{name}: the record at M = {record['M']} failed its "
                      f"check ({record.get('failed')})", file=sys.stderr)
                failed = True
            by_rows.setdefault(record["M"], []).append(record)
        for rows, group in by_rows.items():
            ratios = [r["coda_vs_floor"] for r in group]
            # Processes on different cards are not one spread: name them all.
            devices = ", ".join(sorted({r["device"] for r in group}))
            print(f"| {name} | {rows} | {devices} | {len(group)} "
                  f"| {statistics.median(r['coda_ms'] for r in group):.3f} "
                  f"| {statistics.median(r['gemm_floor_ms'] for r in group):.3f} "
                  f"| {min(ratios):.3f} | {statistics.median(ratios):.3f} "
                  f"| {max(ratios):.3f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
