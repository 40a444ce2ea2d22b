#!/usr/bin/env python3
"""How much of the timed forward+backward step of bench/block.py is the
Python runtime's own work rather than the GPU's.

  python3 bench/runtime_overhead.py PAIR.ptx [--rows 4096 16384]

For the canonical block's training pair (bench/block.py's buffers), per M:

  enqueue us    CPU time of one step's two `Bundle.run` calls (binding every
                buffer, then the launches), the median of 20 steps
  step ms       the step timed as block.py times it (do_bench after its L2
                flush), and, beside it, the same with a CUDA event pair
                around a step that follows a synchronize, so that no queued
                work hides the CPU's
  launch ms     that event-timed step's kernels alone: the same launches
                after the buffers are bound, through the C API

Needs CODA_RUNTIME_LIBRARY and a GPU; prints one markdown table.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time

import torch
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block  # noqa: E402
from coda import runtime  # noqa: E402


def event_ms(fn, repeats=30):
    """Median of `fn` timed by a CUDA event pair, each after a synchronize."""
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, nargs="+", default=[4096, 16384])
    args = parser.parse_args()
    pair = block.load_pair(args.ptx)
    forward, backward = pair[:2]
    lib = runtime._lib()
    print("| M | buffers bound | enqueue us | step ms (do_bench) | step ms (events) "
          "| launch ms (events) |")
    print("|---|---|---|---|---|---|")
    for rows in args.rows:
        inputs = block.make_inputs(rows)
        cotangents = block.make_cotangents(rows)
        forward_buffers, backward_buffers, _, _ = block.training_buffers(
            pair, inputs, cotangents, rows)
        step = block.training_step(pair, forward_buffers, backward_buffers, rows)
        step()
        torch.cuda.synchronize()
        enqueue = []
        for _ in range(20):
            torch.cuda.synchronize()
            begin = time.perf_counter()
            step()
            enqueue.append((time.perf_counter() - begin) * 1e6)
        torch.cuda.synchronize()
        stream = torch.cuda.current_stream().cuda_stream

        def launch_only():
            for bundle in (forward, backward):
                runtime._check(lib.codaSessionLaunch(bundle._session, rows,
                                                     ctypes.c_void_p(stream)))

        print(f"| {rows} | {len(forward_buffers) + len(backward_buffers)} "
              f"| {statistics.median(enqueue):.0f} "
              f"| {triton.testing.do_bench(step, warmup=50, rep=300, return_mode='median'):.3f} "
              f"| {event_ms(step):.3f} | {event_ms(launch_only):.3f} |", flush=True)


if __name__ == "__main__":
    main()
