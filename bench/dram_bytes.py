"""DRAM bytes each kernel of a compiled training pair reads and writes, from
the hardware counters, beside the bytes of its operands and results.

  python3 bench/dram_bytes.py PAIR.ptx [--rows 16384] [--out DIR]        # GPU machine
  python3 bench/dram_bytes.py PAIR.ptx [--rows 16384] --csv DIR/dram_bytes.csv
  python3 bench/dram_bytes.py PAIR.ptx --floor [--rows 16384] [--out DIR | --csv CSV]

Runs `bench/kernel_profile.py PAIR.ptx --once --rows R` under Nsight
Compute (`ncu --clock-control none`, its default cache control: L2 flushed
before each kernel, so every kernel starts cold, one after the other) for
the DRAM bytes read and written and the duration of each kernel of the
plan, writes ncu's CSV to DIR/dram_bytes.csv, and prints them beside
bench/plan_bytes.py's count of its operands and results, each read or
written once: what a kernel moves past that lower bound is operands read
again because L2 did not keep them (bench/NOTES.md §79). With --csv it
reads a CSV written before instead of measuring (no GPU needed). The
table ends with the GEMM kernels' sum, the number to set beside the floor's.

With --floor it measures bench/block.py's GEMM floor the same way
(`kernel_profile.py --floor-once`, CSV in DIR/dram_bytes_floor.csv): each
cuBLAS kernel's bytes summed over its launches, then its GEMM kernels'
sum against the floor's twelve GEMMs with their operands and results once
(bench/plan_bytes.py's floor_bytes); its elementwise kernels are listed
but not in that sum.
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plan_bytes import floor_bytes, kernel_bytes  # noqa: E402

METRICS = {
    "dram__bytes_read.sum": "read",
    "dram__bytes_write.sum": "written",
    "gpu__time_duration.sum": "ns",
}


# cuBLAS's GEMM kernels and its split-K reduction, by name; the floor's
# other kernels are autograd's elementwise ones.
FLOOR_GEMM_NAMES = ("nvjet", "gemm", "splitK")


def measure(ptx, rows, floor):
    """ncu's CSV of every kernel of one run of the pair, or of the floor."""
    here = os.path.dirname(os.path.abspath(__file__))
    command = ["ncu", "--clock-control", "none", "--csv", "--print-units",
               "base", "--metrics", ",".join(METRICS), sys.executable,
               os.path.join(here, "kernel_profile.py"), ptx,
               "--floor-once" if floor else "--once", "--rows", str(rows)]
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


def table_row(name, op, v, once):
    """One table row: the kernel's time and DRAM bytes beside `once`."""
    gb = 1e9
    moved = v["read"] + v["written"]
    ratio = f"{moved / once:.2f}" if once else ""
    once = f"{once / gb:.3f}" if once else ""
    return (f"| {name} | {op} | {v['ns'] / 1e3:.1f} | {v['read'] / gb:.3f} | "
            f"{v['written'] / gb:.3f} | {once} | {ratio} |")


def add(total, v):
    for key in METRICS.values():
        total[key] += v[key]


def plan_rows(values, ptx, rows):
    """The plan's kernels, each against its operands and results once, then
    the GEMMs' and all kernels' sums."""
    with open(os.path.splitext(ptx)[0] + ".plan.json") as f:
        plan = json.load(f)
    lines = []
    total, gemms = (dict.fromkeys(METRICS.values(), 0.0) for _ in range(2))
    once_sum = gemms_once = 0.0
    for function in plan["functions"]:
        for name, (op, once) in kernel_bytes(function, rows).items():
            if name not in values:
                continue
            lines.append(table_row(name, op, values[name], once))
            add(total, values[name])
            once_sum += once
            if op == "coda.gemm":
                add(gemms, values[name])
                gemms_once += once
    if not once_sum:
        sys.exit("dram_bytes.py: no kernel of the plan was measured")
    lines.append(table_row("GEMMs", "", gemms, gemms_once))
    lines.append(table_row("all", "", total, once_sum))
    return lines


def floor_rows(values, rows):
    """The floor's kernels by name, then its GEMM kernels' sum against its
    twelve GEMMs' operands and results once."""
    lines = []
    gemms = dict.fromkeys(METRICS.values(), 0.0)
    for name, v in sorted(values.items(), key=lambda item: -item[1]["ns"]):
        is_gemm = any(key in name for key in FLOOR_GEMM_NAMES)
        lines.append(table_row(name[:80], "GEMM" if is_gemm else "other", v, 0))
        if is_gemm:
            add(gemms, v)
    if not gemms["ns"]:
        sys.exit("dram_bytes.py: no GEMM kernel of the floor was measured")
    lines.append(table_row("GEMMs", "", gemms, sum(floor_bytes(rows))))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--out", default=".")
    parser.add_argument("--csv", help="read this CSV of an earlier measurement")
    parser.add_argument("--floor", action="store_true",
                        help="measure bench/block.py's GEMM floor instead of the pair")
    options = parser.parse_args()
    if options.csv:
        with open(options.csv) as f:
            text = f.read()
    else:
        text = measure(options.ptx, options.rows, options.floor)
        os.makedirs(options.out, exist_ok=True)
        name = "dram_bytes_floor.csv" if options.floor else "dram_bytes.csv"
        with open(os.path.join(options.out, name), "w") as f:
            f.write(text)
    values = kernel_values(text)
    print("| kernel | op | us | DRAM read GB | DRAM written GB | "
          "operands and results once GB | DRAM / once |")
    print("|---|---|---|---|---|---|---|")
    lines = (floor_rows(values, options.rows) if options.floor
             else plan_rows(values, options.ptx, options.rows))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
