"""Runs a compiled training pair's functions many times to catch a hang.

A race between a kernel's warpgroups (an mbarrier phase waited for two
phases late, a slot released twice) may show up once in thousands of
launches, which one checked run or compute-sanitizer's single run
(kernel_profile.py --once) do not reach. This runs block_forward, then
block_backward, --steps times each at every --rows (on the inputs of
bench/block.py), synchronizing every --sync launches; a watchdog thread
reports the function, the row count and the launches completed if a
synchronization takes longer than --timeout seconds, and exits 2 (the GPU
context cannot be recovered from a hung kernel).

usage: python3 bench/stress_pair.py PAIR.ptx [--rows 4097] [--steps 2000]
                                    [--sync 100] [--timeout 20]
                                    [--functions forward backward]
"""

import argparse
import os
import sys
import threading
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block as bench  # noqa: E402


class Watchdog:
    """Exits the process with 2 when `arm`'s deadline passes before `disarm`."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.deadline = None
        self.what = ""
        thread = threading.Thread(target=self.watch, daemon=True)
        thread.start()

    def arm(self, what):
        self.what = what
        self.deadline = time.monotonic() + self.timeout

    def disarm(self):
        self.deadline = None

    def watch(self):
        while True:
            time.sleep(0.5)
            deadline = self.deadline
            if deadline is not None and time.monotonic() > deadline:
                print(f"hang: {self.what} did not finish in {self.timeout} s",
                      flush=True)
                os._exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", help="the training pair's PTX; its plan is beside it")
    parser.add_argument("--rows", type=int, nargs="+", default=[4097])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--sync", type=int, default=100,
                        help="launches between synchronizations")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds a synchronization may take")
    parser.add_argument("--functions", nargs="+", default=["forward", "backward"],
                        choices=["forward", "backward"],
                        help="which of the pair's functions to run")
    options = parser.parse_args()

    pair = bench.load_pair(options.ptx)
    forward, backward = pair[:2]
    watchdog = Watchdog(options.timeout)
    for rows in options.rows:
        forward_buffers, backward_buffers, _, _ = bench.training_buffers(
            pair, bench.make_inputs(rows), bench.make_cotangents(rows), rows)
        runs = {"forward": (bench.FORWARD_FUNCTION, forward, forward_buffers),
                "backward": (bench.BACKWARD_FUNCTION, backward, backward_buffers)}
        for name, bundle, buffers in (runs[f] for f in options.functions):
            start = time.perf_counter()
            for done in range(0, options.steps, options.sync):
                watchdog.arm(f"{name} at {rows} rows, launches {done} to "
                             f"{min(done + options.sync, options.steps)}")
                for _ in range(min(options.sync, options.steps - done)):
                    bundle.run(buffers, rows)
                torch.cuda.synchronize()
                watchdog.disarm()
            print(f"ok: {name} at {rows} rows, {options.steps} launches in "
                  f"{time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
