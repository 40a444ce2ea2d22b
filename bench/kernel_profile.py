"""Per-kernel device times of the block's training pair on the GPU.

Runs block_forward then block_backward of a compiled pair (PAIR.ptx with
its plan beside it, as bench/block.py --training takes it) on the inputs
of bench/block.py, under torch.profiler, and prints for each kernel of the
plan its op, its mean device time over the profiled steps, and the time
its bytes would take at the given bandwidth when it is not a GEMM (each
operand read and each result written once; the launch plan's shapes at
M rows), then the step's time as bench/block.py measures it, launches and
gaps included. The GEMM floor's kernels (cuBLAS, forward and backward through
autograd) are profiled the same way for the total to compare with.

usage: python3 bench/kernel_profile.py PAIR.ptx [--rows 16384] [--steps 20]
"""

import argparse
import collections
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block as bench  # noqa: E402

ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "i32": 4, "i64": 8}


def profile(step, steps):
    """Mean device microseconds per kernel name over `steps` runs."""
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    times = collections.defaultdict(float)
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            times[event.name] += event.time_range.elapsed_us() / steps
    return times


def kernel_bytes(function, rows):
    """Bytes each kernel of the plan's `function` reads and writes."""
    sizes = {}
    for buffer in function["buffers"]:
        count = 1
        for d in buffer["shape"]:
            count *= rows if d == -1 else d
        sizes[buffer["name"]] = count * ELEMENT_BYTES[buffer["type"]]
    result = {}
    for kernel in function["kernels"]:
        if "name" not in kernel:
            continue
        names = [a.get("buffer") or a.get("tensor_map") for a in kernel["arguments"]]
        result[kernel["name"]] = (kernel["op"], sum(sizes[n] for n in names if n))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--bandwidth", type=float, default=4.0,
                        help="TB/s for the bytes column (default 4.0)")
    options = parser.parse_args()
    rows = options.rows
    forward = bench.coda.Bundle(options.ptx, function=bench.FORWARD_FUNCTION)
    backward = bench.coda.Bundle(options.ptx, function=bench.BACKWARD_FUNCTION)
    pair = (forward, backward, bench.plan_results(options.ptx, bench.FORWARD_FUNCTION),
            bench.plan_results(options.ptx, bench.BACKWARD_FUNCTION))
    inputs = bench.make_inputs(rows)
    cotangents = bench.make_cotangents(rows)
    forward_buffers, backward_buffers, _, _ = bench.training_buffers(
        pair, inputs, cotangents, rows)
    times = profile(lambda: (forward.run(forward_buffers, rows),
                             backward.run(backward_buffers, rows)), options.steps)
    with open(os.path.splitext(options.ptx)[0] + ".plan.json") as f:
        plan = {fn["name"]: fn for fn in json.load(f)["functions"]}
    print(f"| kernel | op | us | us at {options.bandwidth} TB/s |")
    print("|---|---|---|---|")
    total = 0.0
    for name in (bench.FORWARD_FUNCTION, bench.BACKWARD_FUNCTION):
        for kernel, (op, size) in kernel_bytes(plan[name], rows).items():
            us = times.get(kernel, 0.0)
            total += us
            ideal = "" if op == "coda.gemm" else f"{size / options.bandwidth / 1e6:.1f}"
            print(f"| {kernel} | {op} | {us:.1f} | {ideal} |")
    print(f"| all | | {total:.1f} | |")
    step = lambda: (forward.run(forward_buffers, rows), backward.run(backward_buffers, rows))
    print(f"\nforward+backward as bench/block.py times it: "
          f"{bench.median_ms(step) * 1e3:.1f} us; kernels alone: {total:.1f} us")

    args, _ = bench.leaf_arguments(inputs, torch.bfloat16)
    _, y0, wo, _, w1, wd, _, wqkv, _, _ = args
    leaves = [y0, wo, w1, wd, wqkv]
    dqkv = cotangents[1].bfloat16()
    floor = profile(lambda: bench.gradients(bench.gemms_only, leaves, leaves, [dqkv]),
                    options.steps)
    print(f"\nGEMM floor forward+backward at {rows} rows: {sum(floor.values()):.1f} us "
          f"of kernels")
    for name, us in sorted(floor.items(), key=lambda item: -item[1]):
        print(f"  {us:8.1f} us  {name[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
