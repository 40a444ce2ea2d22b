"""DRAM bytes each kernel of a compiled training pair reads and writes, from
the hardware counters, beside the bytes of its operands and results.

  python3 bench/dram_bytes.py PAIR.ptx [--rows 16384] [--out DIR]        # GPU machine
  python3 bench/dram_bytes.py PAIR.ptx [--rows 16384] --csv DIR/dram_bytes.csv

Runs `bench/kernel_profile.py PAIR.ptx --once --rows R` under Nsight
Compute (`ncu --clock-control none`, its default cache control: L2 flushed
before each kernel, so every kernel starts cold, one after the other) for
the DRAM bytes read and written and the duration of each kernel of the
plan, writes ncu's CSV to DIR/dram_bytes.csv, and prints them beside
bench/plan_bytes.py's count of its operands and results, each read or
written once: what a kernel moves past that lower bound is operands read
again because L2 did not keep them (bench/NOTES.md §79). With --csv it
reads a CSV written before instead of measuring (no GPU needed).
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plan_bytes import kernel_bytes  # noqa: E402

METRICS = {
    "dram__bytes_read.sum": "read",
    "dram__bytes_write.sum": "written",
    "gpu__time_duration.sum": "ns",
}


def measure(ptx, rows):
    """ncu's CSV of every kernel of one run of the pair."""
    here = os.path.dirname(os.path.abspath(__file__))
    command = ["ncu", "--clock-control", "none", "--csv", "--print-units",
               "base", "--metrics", ",".join(METRICS), sys.executable,
               os.path.join(here, "kernel_profile.py"), ptx, "--once",
               "--rows", str(rows)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout[-4000:] + run.stderr[-4000:])
        sys.exit(f"dram_bytes.py: ncu exited {run.returncode}")
    return run.stdout


def kernel_values(text):
    """Per kernel name, its metrics summed over its launches, from ncu's
    output (its own lines, then the CSV from its header row on)."""
    start = text.find('"ID"')
    if start < 0:
        sys.exit("dram_bytes.py: no CSV in ncu's output")
    values = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        metric = METRICS.get(row["Metric Name"])
        if metric:
            kernel = values.setdefault(row["Kernel Name"],
                                       dict.fromkeys(METRICS.values(), 0.0))
            kernel[metric] += float(row["Metric Value"].replace(",", ""))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--out", default=".")
    parser.add_argument("--csv", help="read this CSV of an earlier measurement")
    options = parser.parse_args()
    if options.csv:
        with open(options.csv) as f:
            text = f.read()
    else:
        text = measure(options.ptx, options.rows)
        os.makedirs(options.out, exist_ok=True)
        with open(os.path.join(options.out, "dram_bytes.csv"), "w") as f:
            f.write(text)
    values = kernel_values(text)
    with open(os.path.splitext(options.ptx)[0] + ".plan.json") as f:
        plan = json.load(f)
    gb = 1e9
    print("| kernel | op | us | DRAM read GB | DRAM written GB | "
          "operands and results once GB | DRAM / once |")
    print("|---|---|---|---|---|---|---|")
    moved_sum = once_sum = ns_sum = 0.0
    for function in plan["functions"]:
        for name, (op, once) in kernel_bytes(function, options.rows).items():
            if name not in values:
                continue
            v = values[name]
            moved = v["read"] + v["written"]
            moved_sum += moved
            once_sum += once
            ns_sum += v["ns"]
            print(f"| {name} | {op} | {v['ns'] / 1e3:.1f} | {v['read'] / gb:.3f} | "
                  f"{v['written'] / gb:.3f} | {once / gb:.3f} | "
                  f"{moved / once if once else 0:.2f} |")
    if not once_sum:
        sys.exit("dram_bytes.py: no kernel of the plan was measured")
    print(f"| all | | {ns_sum / 1e3:.1f} | | | {once_sum / gb:.3f} | "
          f"{moved_sum / once_sum:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
