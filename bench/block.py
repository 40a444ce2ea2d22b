"""The canonical Llama-3-1B block forward on the GPU: CODA against PyTorch.

Runs examples/llama3-1b-block.mlir, compiled by `coda-translate --coda-to-ptx`
(PTX and launch plan), through the CODA runtime (python/coda) and measures, in
one process, per token count M:

  coda        the compiled block: four GEMM-epilogue kernels, two reductions
  eager       the same block in PyTorch eager, bf16
  compile     torch.compile(block) (default mode, static shapes)
  gemm floor  the block's four GEMMs alone in cuBLAS, no epilogue work

timed as the baseline harness times them (triton.testing.do_bench, median of
300 ms of runs after 50 ms of warm-up, no autograd), and the error of CODA and
of eager bf16 against the block in f64 on the same inputs (relative Frobenius
error of each output; the contract of DESIGN.md section 6 is CODA <= 2 x eager).

usage: python3 bench/block.py BLOCK.ptx [--rows 4096 16384 32768] [--out DIR]

Writes DIR/block.json, DIR/block.md (the table) and DIR/block.png (the plot).
"""

import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F
import triton.testing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import coda  # noqa: E402

D, FF, HQ, HKV, HD = 2048, 8192, 32, 8, 64
QKV = (HQ + 2 * HKV) * HD
EPS = 1e-5
# The block's arguments before its RoPE tables, in the order of
# examples/llama3-1b-block.mlir.
TENSOR_ARGUMENTS = ["x0", "y0", "wo", "g1", "wg", "wu", "wd", "g2", "wqkv"]


def rope(x, cos, sin):
    """Rotate-half RoPE per head; cos and sin are [M, HD]."""
    m = x.shape[0]
    x = x.view(m, -1, HD)
    x1, x2 = x[..., : HD // 2], x[..., HD // 2:]
    rotated = torch.cat((-x2, x1), dim=-1)
    return (x * cos[:, None, :] + rotated * sin[:, None, :]).view(m, -1)


def block(x0, y0, wo, g1, w1, wd, g2, wqkv, cos, sin):
    """The block of examples/llama3-1b-block.mlir in PyTorch, written as the
    baseline harness writes it: gate and up as one GEMM over their stacked
    weights `w1`."""
    x1 = x0 + y0 @ wo.t()
    h1 = F.rms_norm(x1, (D,), g1, EPS)
    gate_up = h1 @ w1.t()
    a = F.silu(gate_up[:, :FF]) * gate_up[:, FF:]
    x2 = x1 + a @ wd.t()
    h2 = F.rms_norm(x2, (D,), g2, EPS)
    qkv = h2 @ wqkv.t()
    qk = rope(qkv[:, : (HQ + HKV) * HD], cos, sin)
    return x2, torch.cat((qk, qkv[:, (HQ + HKV) * HD:]), dim=1)


def gemms_only(y0, wo, w1, wd, wqkv):
    """The block's GEMMs on the same shapes, nothing between them (gate and
    up as one GEMM over their stacked weights, as the baseline has it)."""
    a = y0 @ wo.t()
    b = a @ w1.t()
    c = b[:, :FF] @ wd.t()
    return c @ wqkv.t()


def make_inputs(m, seed=0):
    """Activations N(0, 1), weights N(0, 0.02^2), gammas 1 + N(0, 0.1^2),
    RoPE angles of positions m % 1024 (theta = 500000)."""
    g = torch.Generator(device="cuda").manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, device="cuda", generator=g) * scale

    pos = torch.arange(m, device="cuda") % 1024
    inv = 1.0 / (500000 ** (torch.arange(0, HD, 2, device="cuda").double() / HD))
    angles = pos[:, None].double() * inv[None, :]
    return {
        "x0": randn(m, D), "y0": randn(m, D),
        "wo": randn(D, D, scale=0.02), "g1": 1 + randn(D, scale=0.1),
        "wg": randn(FF, D, scale=0.02), "wu": randn(FF, D, scale=0.02),
        "wd": randn(D, FF, scale=0.02), "g2": 1 + randn(D, scale=0.1),
        "wqkv": randn(QKV, D, scale=0.02),
        "angles": angles,
    }


def torch_args(inputs, dtype):
    """`block`'s arguments in `dtype`: gate and up stacked, RoPE tables
    [M, HD] (rotate-half)."""
    x0, y0, wo, g1, wg, wu, wd, g2, wqkv = [inputs[n].to(dtype)
                                            for n in TENSOR_ARGUMENTS]
    full = torch.cat((inputs["angles"], inputs["angles"]), dim=-1)
    return [x0, y0, wo, g1, torch.cat((wg, wu)), wd, g2, wqkv,
            full.cos().to(dtype), full.sin().to(dtype)]


def coda_buffers(bundle, inputs, rows):
    """The bundle's argument buffers (bf16, f32 [M, 32] RoPE tables) and
    result buffers, by plan name."""
    values = [inputs[n].bfloat16().contiguous() for n in TENSOR_ARGUMENTS]
    values += [inputs["angles"].cos().float().contiguous(),
               inputs["angles"].sin().float().contiguous()]
    buffers = {f"arg{i}": v for i, v in enumerate(values)}
    for name, buffer in bundle.buffers.items():
        if buffer.role == "result":
            buffers[name] = torch.empty(buffer.shape_for(rows), device="cuda",
                                        dtype=torch.bfloat16)
    return buffers


def median_ms(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def relative_error(value, reference):
    return ((value.double() - reference).norm() / reference.norm()).item()


def measure(bundle, compiled, rows):
    inputs = make_inputs(rows)
    args = torch_args(inputs, torch.bfloat16)
    buffers = coda_buffers(bundle, inputs, rows)
    results = [name for name, b in bundle.buffers.items() if b.role == "result"]
    _, y0, wo, _, w1, wd, _, wqkv, _, _ = args
    with torch.no_grad():
        reference = block(*torch_args(inputs, torch.float64))
        eager = block(*args)
        bundle.run(buffers, rows)
        torch.cuda.synchronize()
        ours = [buffers[name] for name in results]
        record = {
            "M": rows,
            "coda_error": max(relative_error(o, r) for o, r in zip(ours, reference)),
            "eager_error": max(relative_error(e, r) for e, r in zip(eager, reference)),
        }
        del reference
        torch.cuda.empty_cache()
        record["coda_ms"] = median_ms(lambda: bundle.run(buffers, rows))
        record["eager_ms"] = median_ms(lambda: block(*args))
        record["compile_ms"] = median_ms(lambda: compiled(*args))
        record["gemm_floor_ms"] = median_ms(lambda: gemms_only(y0, wo, w1, wd, wqkv))
    flops = 2 * rows * (D * D + 2 * FF * D + FF * D + QKV * D)
    record["coda_tflops"] = flops / record["coda_ms"] / 1e9
    record["coda_vs_floor"] = record["coda_ms"] / record["gemm_floor_ms"]
    record["eager_speedup"] = record["eager_ms"] / record["coda_ms"]
    record["compile_speedup"] = record["compile_ms"] / record["coda_ms"]
    record["ok"] = record["coda_error"] <= 2 * record["eager_error"]
    return record


def table(records):
    lines = [
        "| M | CODA ms | eager ms | torch.compile ms | GEMM floor ms | CODA / floor "
        "| eager / CODA | compile / CODA | CODA TFLOP/s | CODA error | eager error |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        lines.append(
            f"| {r['M']} | {r['coda_ms']:.3f} | {r['eager_ms']:.3f} | {r['compile_ms']:.3f} "
            f"| {r['gemm_floor_ms']:.3f} | {r['coda_vs_floor']:.3f} | {r['eager_speedup']:.2f} "
            f"| {r['compile_speedup']:.2f} | {r['coda_tflops']:.0f} | {r['coda_error']:.2e} "
            f"| {r['eager_error']:.2e} |")
    return "\n".join(lines) + "\n"


def plot(records, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plot", file=sys.stderr)
        return
    labels = [str(r["M"]) for r in records]
    series = [("CODA", "coda_ms"), ("eager", "eager_ms"),
              ("torch.compile", "compile_ms"), ("GEMM floor", "gemm_floor_ms")]
    width = 0.2
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, (name, key) in enumerate(series):
        ax.bar([x + (i - 1.5) * width for x in range(len(records))],
               [r[key] / r["gemm_floor_ms"] for r in records], width, label=name)
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xticks(range(len(records)), labels)
    ax.set_xlabel("tokens M")
    ax.set_ylabel("time / GEMM-only floor")
    ax.set_title("Llama-3-1B block forward, H200, bf16")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", help="the block's PTX; its plan is beside it")
    parser.add_argument("--rows", type=int, nargs="+", default=[4096, 16384, 32768])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    options = parser.parse_args()

    bundle = coda.Bundle(options.ptx)
    compiled = torch.compile(block, dynamic=False)
    records = []
    for rows in options.rows:
        record = measure(bundle, compiled, rows)
        print(json.dumps(record), flush=True)
        records.append(record)
    os.makedirs(options.out, exist_ok=True)
    with open(os.path.join(options.out, "block.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "records": records}, f, indent=1)
    markdown = table(records)
    with open(os.path.join(options.out, "block.md"), "w") as f:
        f.write(markdown)
    plot(records, os.path.join(options.out, "block.png"))
    print(markdown)
    return 0 if all(r["ok"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
