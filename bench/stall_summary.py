"""Where a GEMM kernel's warps stall, from Nsight Compute's per-instruction
warp-state samples (bench/NOTES.md §35).

  python3 bench/stall_summary.py SOURCE.csv

SOURCE.csv: `ncu --import REPORT.ncu-rep --page source --csv --print-source
sass` of a report taken with the SourceCounters section (bench/stall_profile.sh
writes both). The generated kernel's SASS runs the producer's code first, then
the consumers' mainloop (the HGMMA instructions), then their epilogue; this
splits the samples at the first and the last HGMMA, prints each part's share
and its six largest stall reasons, then the 40 instructions with the most
samples and their largest reason.
"""
import csv
import sys

FIRST_REASON, LAST_REASON = "stall_barrier", "stall_wait"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = list(csv.reader(open(sys.argv[1])))
    header, data = rows[1], rows[2:]
    first = header.index(FIRST_REASON)
    last = header.index(LAST_REASON) + 1
    samples = header.index("Warp Stall Sampling (All Samples)")
    reasons = header[first:last]
    instructions = [(row[1].strip(), int(row[samples] or 0),
                     [int(v or 0) for v in row[first:last]]) for row in data]
    hgmma = [i for i, (text, _, _) in enumerate(instructions) if "HGMMA" in text]
    if not hgmma:
        print("no HGMMA instruction: not a GEMM kernel", file=sys.stderr)
        return 1
    total = sum(n for _, n, _ in instructions)
    print(f"{len(instructions)} instructions, {total} samples")
    for label, part in (("before the first HGMMA (producer)", instructions[:hgmma[0]]),
                        ("the HGMMA span (mainloop)", instructions[hgmma[0]:hgmma[-1] + 1]),
                        ("after the last HGMMA (epilogue)", instructions[hgmma[-1] + 1:])):
        count = sum(n for _, n, _ in part)
        by_reason = [sum(v[k] for _, _, v in part) for k in range(len(reasons))]
        top = sorted(zip(reasons, by_reason), key=lambda t: -t[1])[:6]
        print(f"{label}: {count} samples ({100 * count / total:.1f}%): "
              + ", ".join(f"{r}={n}" for r, n in top))
    print("the instructions with the most samples:")
    for index, (text, count, values) in sorted(
            enumerate(instructions), key=lambda t: -t[1][1])[:40]:
        reason = reasons[max(range(len(reasons)), key=lambda k: values[k])]
        print(f"{index:6d} {count:7d} {reason:22s} {text[:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
