"""Per-kernel device times of the block's training pair on the GPU.

Runs block_forward then block_backward of a compiled pair (PAIR.ptx with
its plan beside it, as bench/block.py --training takes it) on the inputs
of bench/block.py, under torch.profiler, and prints for each kernel of the
plan its op, its mean device time over the profiled steps, and the time
its bytes would take at the given bandwidth when it is not a GEMM (each
operand read and each result written once; the launch plan's shapes at
M rows) and the device's mean idle time before it, then the step's time
as bench/block.py measures it, launches and gaps included, and replayed
from a CUDA graph. The GEMM floor's kernels (cuBLAS, forward and backward through
autograd) are profiled the same way for the total to compare with.

With --once it runs the pair a single time at each of --rows and
stops (for compute-sanitizer: `compute-sanitizer python3
bench/kernel_profile.py PAIR.ptx --once --rows 37 1000`). With --floor-once
it runs the GEMM floor's forward+backward a single time at each of --rows
instead, and loads no pair (for Nsight Compute: bench/dram_bytes.py
--floor).

With --flush every profiled step follows a write of 256 MB, as
triton.testing.do_bench clears the L2 before each of block.py's timed runs,
so the kernels start as they do there.

The kernels are launched one after the other (CODA_RUNTIME_SERIAL_LAUNCH=1),
so that each kernel's time is its own: launched while the kernel before it
finishes, a kernel's time would include its wait for that kernel. With
--dependent they are launched as the runtime launches them by default, and
the step's times below the table are the ones block.py measures.

usage: python3 bench/kernel_profile.py PAIR.ptx [--rows 16384] [--steps 20] [--once] [--flush]
                                      [--dependent] [--floor-once]
"""

import argparse
import collections
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block as bench  # noqa: E402
from plan_bytes import kernel_bytes  # noqa: E402


def device_events(prof):
    """The profiled device activities (kernels, copies, memsets)."""
    return [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def profile(step, steps, flush=False):
    """Mean device microseconds per kernel name over `steps` runs, and the
    mean idle time on the device before each kernel (from the end of the
    kernel before it). With `flush`, each run follows a 256 MB write (the
    L2 cleared as do_bench clears it)."""
    cache = torch.empty(256 << 20, dtype=torch.int8, device="cuda") if flush else None
    flush_kernels = set()
    if cache is not None:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            cache.zero_()
            torch.cuda.synchronize()
        flush_kernels = {e.name for e in device_events(prof)}
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            if cache is not None:
                cache.zero_()
            step()
        torch.cuda.synchronize()
    times = collections.defaultdict(float)
    idle = collections.defaultdict(float)
    kernels = sorted(device_events(prof), key=lambda e: e.time_range.start)
    for previous, event in zip([None] + kernels[:-1], kernels):
        if event.name in flush_kernels:
            continue
        times[event.name] += event.time_range.elapsed_us() / steps
        if previous is not None:
            idle[event.name] += max(0, event.time_range.start
                                    - previous.time_range.end) / steps
    return times, idle


def floor_step(inputs, cotangents):
    """A callable that runs the GEMM floor's forward+backward once (bench/
    block.py's gemms_only through autograd, bf16)."""
    args, _ = bench.leaf_arguments(inputs, torch.bfloat16)
    _, y0, wo, _, w1, wd, _, wqkv, _, _ = args
    leaves = [y0, wo, w1, wd, wqkv]
    dqkv = cotangents[1].bfloat16()
    return lambda: bench.gradients(bench.gemms_only, leaves, leaves, [dqkv])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, nargs="+", default=[16384])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--bandwidth", type=float, default=4.0,
                        help="TB/s for the bytes column (default 4.0)")
    parser.add_argument("--once", action="store_true",
                        help="run the pair once at each row count and stop")
    parser.add_argument("--flush", action="store_true",
                        help="clear the L2 before each profiled step, as do_bench does")
    parser.add_argument("--dependent", action="store_true",
                        help="launch each kernel while the one before it finishes, as "
                             "the runtime does by default (kernel times then include "
                             "their waits)")
    parser.add_argument("--floor-once", action="store_true",
                        help="run the GEMM floor's forward+backward once at each row "
                             "count and stop")
    options = parser.parse_args()
    if options.floor_once:
        for rows in options.rows:
            run_floor = floor_step(bench.make_inputs(rows), bench.make_cotangents(rows))
            run_floor()
            torch.cuda.synchronize()
            print(f"ran the GEMM floor at {rows} rows")
        return 0
    # The runtime reads it at its first launch.
    if not options.dependent:
        os.environ["CODA_RUNTIME_SERIAL_LAUNCH"] = "1"
    pair = bench.load_pair(options.ptx)
    forward, backward = pair[:2]
    if options.once:
        for rows in options.rows:
            forward_buffers, backward_buffers, _, _ = bench.training_buffers(
                pair, bench.make_inputs(rows), bench.make_cotangents(rows), rows)
            forward.run(forward_buffers, rows)
            backward.run(backward_buffers, rows)
            torch.cuda.synchronize()
            print(f"ran the pair at {rows} rows")
        return 0
    rows = options.rows[0]
    inputs = bench.make_inputs(rows)
    cotangents = bench.make_cotangents(rows)
    forward_buffers, backward_buffers, _, _ = bench.training_buffers(
        pair, inputs, cotangents, rows)
    times, idle = profile(lambda: (forward.run(forward_buffers, rows),
                                   backward.run(backward_buffers, rows)),
                          options.steps, options.flush)
    with open(os.path.splitext(options.ptx)[0] + ".plan.json") as f:
        plan = {fn["name"]: fn for fn in json.load(f)["functions"]}
    print(f"| kernel | op | us | us at {options.bandwidth} TB/s | idle before, us |")
    print("|---|---|---|---|---|")
    total = 0.0
    total_idle = 0.0
    for name in (bench.FORWARD_FUNCTION, bench.BACKWARD_FUNCTION):
        for kernel, (op, size) in kernel_bytes(plan[name], rows).items():
            # A GEMM's kernel of wide tiles runs in its place where the
            # runtime chooses it (NAME_wide).
            us = times.get(kernel, 0.0) + times.get(f"{kernel}_wide", 0.0)
            kernel_idle = idle.get(kernel, 0.0) + idle.get(f"{kernel}_wide", 0.0)
            total += us
            total_idle += kernel_idle
            ideal = "" if op == "coda.gemm" else f"{size / options.bandwidth / 1e6:.1f}"
            print(f"| {kernel} | {op} | {us:.1f} | {ideal} | {kernel_idle:.1f} |")
    print(f"| all | | {total:.1f} | | {total_idle:.1f} |")
    def step():
        forward.run(forward_buffers, rows)
        backward.run(backward_buffers, rows)

    launches = "dependent" if options.dependent else "serial"
    print(f"\nforward+backward as bench/block.py times it ({launches} launches): "
          f"{bench.median_ms(step) * 1e3:.1f} us; kernels alone: {total:.1f} us")
    # The same launches replayed from a CUDA graph: no host work between
    # the kernels.
    try:
        graph = torch.cuda.CUDAGraph()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            step()
            with torch.cuda.graph(graph, stream=stream):
                step()
        torch.cuda.current_stream().wait_stream(stream)
        print(f"the same from a CUDA graph: {bench.median_ms(graph.replay) * 1e3:.1f} us")
    except Exception as error:  # the capture is informative only
        print(f"no CUDA graph: {error}")

    floor, _ = profile(floor_step(inputs, cotangents), options.steps, options.flush)
    print(f"\nGEMM floor forward+backward at {rows} rows: {sum(floor.values()):.1f} us "
          f"of kernels")
    for name, us in sorted(floor.items(), key=lambda item: -item[1]):
        print(f"  {us:8.1f} us  {name[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
