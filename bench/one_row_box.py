"""A variant of a compiled training pair whose GEMM kernel KERNEL loads A in
boxes of 64 rows instead of plan.tileM(), for timing one-row tiles
(bench/NOTES.md §77): whether a k-tile of a tile with one valid row is paced
by the bytes its A box moves into the SM, TMA's zero rows included.

  python3 bench/one_row_box.py PAIR_DIR OUT_DIR KERNEL

Reads PAIR_DIR/pair.ptx and pair.plan.json (`bash bench/pair_ab.sh build
PAIR_DIR`) and writes OUT_DIR/pair.ptx and pair.plan.json where KERNEL's A
tensor maps (its leading arguments of box [64, 256], one per product) have
64-row boxes and each of its k-tile steps expects the bytes of such a box
instead (the constant of its `mbarrier.arrive.expect_tx`, in KERNEL's
entry only). Only the A rows below 64 of each tile are then loaded: the
kernel computes the right values for rows 0-63 of a tile only, so time it
at no more than 64 rows:

  python3 bench/kernel_profile.py OUT_DIR/pair.ptx --rows 37 64

against PAIR_DIR/pair.ptx at the same rows (every other kernel is the
same). Exits 1 with the reason when KERNEL is no GEMM of the plan, has
tiles of other than 256 rows, reads its A MN-major, or its PTX has not
exactly one such constant.
"""
import argparse
import json
import os
import re
import sys


def fail(message):
    print(f"one_row_box.py: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pair_dir")
    parser.add_argument("out_dir")
    parser.add_argument("kernel")
    options = parser.parse_args()

    with open(os.path.join(options.pair_dir, "pair.plan.json")) as f:
        plan = json.load(f)
    kernel = next((k for function in plan["functions"]
                   for k in function["kernels"]
                   if k["name"] == options.kernel), None)
    if kernel is None or kernel["op"] != "coda.gemm":
        fail(f"no GEMM kernel '{options.kernel}' in the plan")
    rows = kernel["rows_per_tile"]
    if rows != 256:
        fail(f"'{options.kernel}' has tiles of {rows} rows, whose A and weight "
             "boxes cannot be told apart in the plan")
    # The leading tensor maps of boxes of a tile's rows are the products' A.
    a_maps = []
    for argument in kernel["arguments"]:
        if argument.get("box") != [64, rows]:
            break
        a_maps.append(argument)
    if not a_maps:
        fail(f"'{options.kernel}' loads A in boxes of "
             f"{kernel['arguments'][0].get('box')}, not [64, {rows}] (a weight "
             "gradient's A is MN-major)")
    a_bytes = rows * 64 * 2
    for a_map in a_maps:
        a_map["box"] = [64, 64]

    with open(os.path.join(options.pair_dir, "pair.ptx")) as f:
        ptx = f.read()
    start = ptx.find(f".entry {options.kernel}(")
    if start < 0:
        fail(f"no entry '{options.kernel}' in the PTX")
    end = ptx.find(".entry ", start + 1)
    end = len(ptx) if end < 0 else end
    entry = ptx[start:end]
    # A k-tile step's bytes: the A box and one 128 x 64 B box per
    # accumulator base (16 KB each), so more than the A box alone.
    steps = sorted({int(v) for v in re.findall(r"mov\.b32\s+%r\d+, (\d+);", entry)
                    if int(v) > a_bytes and (int(v) - a_bytes) % 16384 == 0
                    and int(v) < 10000000})
    if len(steps) != 1:
        fail(f"expected one k-tile step's byte count in '{options.kernel}', "
             f"found {steps}")
    old = steps[0]
    new = old - a_bytes + 64 * 64 * 2
    entry, count = re.subn(rf"(mov\.b32\s+%r\d+, ){old};", rf"\g<1>{new};", entry)
    print(f"{options.kernel}: {len(a_maps)} A box(es) [64, {rows}] -> [64, 64], "
          f"k-tile step {old} -> {new} bytes ({count} constant)")

    os.makedirs(options.out_dir, exist_ok=True)
    with open(os.path.join(options.out_dir, "pair.ptx"), "w") as f:
        f.write(ptx[:start] + entry + ptx[end:])
    with open(os.path.join(options.out_dir, "pair.plan.json"), "w") as f:
        json.dump(plan, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
