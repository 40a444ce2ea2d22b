"""The bytes each kernel of a launch plan moves, and the GEMM floor's.

For every kernel of the plan's functions (PLAN.json, as `coda-translate
--coda-to-ptx` writes it beside the PTX), the bytes of its operands and
results at M rows, each read or written once (a lower bound: a GEMM reads
its operands once per tile row or column that L2 does not keep), then per
function the sums over its GEMMs and over its other kernels. With
--floor, the same count for bench/block.py's GEMM floor: the block's four
GEMMs forward (gate and up as one over their stacked weights, the down
projection reading the gate half) and, through autograd, a dgrad and a
weight gradient per GEMM. No GPU is needed.

usage: python3 bench/plan_bytes.py PLAN.json [--rows 16384] [--floor]
"""

import argparse
import json
import sys

ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "i32": 4, "i64": 8}


def buffer_bytes(function, rows):
    """The bytes of each buffer of `function` at `rows` rows (-B in a
    shape: ceil(rows / B))."""
    sizes = {}
    for buffer in function["buffers"]:
        count = 1
        for d in buffer["shape"]:
            count *= -(rows // d) if d < 0 else d
        sizes[buffer["name"]] = count * ELEMENT_BYTES[buffer["type"]]
    return sizes


def kernel_bytes(function, rows):
    """The op and the bytes of the operands and results of each kernel of
    `function`, by kernel name, in the plan's order."""
    sizes = buffer_bytes(function, rows)
    result = {}
    for kernel in function["kernels"]:
        if "name" not in kernel:
            continue
        # Each buffer once, though a GEMM binds its a twice (its whole boxes
        # and its last row tile's slab boxes).
        names = dict.fromkeys(a.get("buffer") or a.get("tensor_map")
                              for a in kernel["arguments"])
        result[kernel["name"]] = (kernel["op"], sum(sizes[n] for n in names if n))
    return result


def floor_bytes(rows, d=2048, ff=8192, qkv=3072):
    """The bf16 bytes of the GEMM floor's twelve GEMMs at `rows` rows:
    (forward, backward), each operand read and each result written once."""
    def gemm(m, n, k):
        return 2 * (m * k + n * k + m * n)

    shapes = [(rows, d, d), (rows, 2 * ff, d), (rows, d, ff), (rows, qkv, d)]
    forward = sum(gemm(*s) for s in shapes)
    # dgrad: [M, N] x [N, K] -> [M, K]; weight gradient: [N, M] x [M, K] -> [N, K].
    backward = sum(gemm(m, k, n) + gemm(n, k, m) for m, n, k in shapes)
    return forward, backward


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plan")
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--floor", action="store_true",
                        help="also count bench/block.py's GEMM floor")
    options = parser.parse_args()
    with open(options.plan) as f:
        plan = json.load(f)
    gb = 1e9
    print(f"| kernel | op | GB at {options.rows} rows |")
    print("|---|---|---|")
    totals = []
    for function in plan["functions"]:
        gemms = others = 0
        for name, (op, size) in kernel_bytes(function, options.rows).items():
            print(f"| {name} | {op} | {size / gb:.3f} |")
            if op == "coda.gemm":
                gemms += size
            else:
                others += size
        totals.append((function["name"], gemms, others))
    print()
    for name, gemms, others in totals:
        print(f"{name}: GEMMs {gemms / gb:.3f} GB, other kernels {others / gb:.3f} GB")
    if options.floor:
        forward, backward = floor_bytes(options.rows)
        print(f"GEMM floor: GEMMs forward {forward / gb:.3f} GB, backward "
              f"{backward / gb:.3f} GB (its elementwise kernels not counted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
