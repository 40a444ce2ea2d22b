"""Kernel times of several compiled pairs side by side, from the profiles
`bench/pair_ab.sh run` writes (LOG_DIR/NAME/profile1.txt, profile2.txt, ...).

  python3 bench/profile_compare.py LOG_DIR NAME... [--min-us 100]

Prints one markdown table: a row per kernel of the first pair that takes at
least --min-us in some profile (and the "all kernels" row), a column per
round and pair, rounds in the order they ran.
"""
import argparse
import glob
import os
import re
import sys

ROW = re.compile(r"\| (\w+) \| [\w.]+ \| ([\d.]+) \|")
ALL = re.compile(r"\| all \| \| ([\d.]+)")


def read_profile(path):
    times = {}
    with open(path) as f:
        for line in f:
            if m := ROW.match(line):
                times[m.group(1)] = float(m.group(2))
            elif m := ALL.match(line):
                times["all kernels"] = float(m.group(1))
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("logs")
    parser.add_argument("names", nargs="+")
    parser.add_argument("--min-us", type=float, default=100.0)
    options = parser.parse_args()

    rounds = sorted(
        int(re.search(r"profile(\d+)\.txt$", p).group(1))
        for p in glob.glob(os.path.join(options.logs, options.names[0], "profile*.txt")))
    if not rounds:
        print(f"no profiles under {options.logs}/{options.names[0]}", file=sys.stderr)
        return 1
    columns = [(r, n) for r in rounds for n in options.names]
    profiles = {}
    for r, n in columns:
        path = os.path.join(options.logs, n, f"profile{r}.txt")
        profiles[(r, n)] = read_profile(path) if os.path.exists(path) else {}

    kernels = [k for k in profiles[columns[0]]
               if k == "all kernels" or
               max(p.get(k, 0.0) for p in profiles.values()) >= options.min_us]
    print("| kernel | " + " | ".join(f"{n} {r}" for r, n in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for k in kernels:
        cells = [profiles[c].get(k) for c in columns]
        print(f"| {k} | " + " | ".join("" if v is None else f"{v:.1f}" for v in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
