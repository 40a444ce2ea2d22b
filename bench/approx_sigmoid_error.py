"""The error of the GPU kernels' sigmoid, 0.5 + 0.5 · tanh.approx.f32(x / 2),
against sigmoid in float64, on the GPU (bench/NOTES.md §82).

  python3 bench/approx_sigmoid_error.py [--range 30] [--points 4194304]

Evaluates the kernels' form of sigmoid and of SiLU (x · sigmoid(x)) with
PTX's tanh.approx.f32 through a Triton kernel on evenly spaced f32 points
of [-range, range], and prints the largest absolute error of sigmoid and
the largest error of SiLU relative to max(|SiLU(x)|, 1), beside the same
for torch.sigmoid in f32.
"""

import argparse
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def _sigmoid_by_tanh(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    x = tl.load(x_ptr + offsets, mask=inside)
    t = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x * 0.5],
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + offsets, 0.5 + 0.5 * t, mask=inside)


def sigmoid_by_tanh(x):
    y = torch.empty_like(x)
    block = 1024
    _sigmoid_by_tanh[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), BLOCK=block)
    return y


def report(name, x, sigmoid):
    exact = torch.sigmoid(x.double())
    silu, exact_silu = x.double() * sigmoid.double(), x.double() * exact
    absolute = (sigmoid.double() - exact).abs().max().item()
    relative = ((silu - exact_silu).abs() / exact_silu.abs().clamp(min=1.0)).max().item()
    print(f"| {name} | {absolute:.2e} | {relative:.2e} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--range", type=float, default=30.0)
    parser.add_argument("--points", type=int, default=1 << 22)
    options = parser.parse_args()
    x = torch.linspace(-options.range, options.range, options.points,
                       device="cuda", dtype=torch.float32)
    print("| sigmoid | max abs error | max SiLU error / max(|SiLU|, 1) |")
    print("|---|---|---|")
    report("0.5 + 0.5 tanh.approx(x/2)", x, sigmoid_by_tanh(x))
    report("torch.sigmoid (f32)", x, torch.sigmoid(x))
    return 0


if __name__ == "__main__":
    sys.exit(main())
