"""The LM head and its loss on the GPU: CODA against PyTorch.

Runs `lm_head` of examples/lm-head.mlir (final RMSNorm, a linear to a
32768-token vocabulary with f32 logits, the mean cross-entropy ignoring
targets of -100), compiled by `coda-translate --coda-to-ptx` (PTX and launch
plan), through the CODA runtime, and per token count M, in one process:

  coda        the compiled head: the norm's statistics, the logits GEMM whose
              epilogue stores only per-tile log-sum-exps and target logits,
              two reductions per row and the loss kernel
  eager       the same head in PyTorch eager, bf16 operands, f32 logits
  compile     torch.compile of it (default mode, static shapes)
  gemm floor  the logits GEMM alone in cuBLAS (bf16 in, f32 out)

timed with triton.testing.do_bench (median of 300 ms of runs after 50 ms of
warm-up), and the relative error of CODA's loss and of eager's against the
head in f64 on the same inputs (x N(0, 1), gamma 1 + N(0, 0.1^2), W N(0,
0.02^2), targets uniform over the vocabulary with one row in eight -100);
a record is ok when CODA's error is <= 2 x eager's or below 1e-5.

usage: python3 bench/lm_head.py LM_HEAD.ptx [--rows 1000 4097 16384] [--out DIR]

Writes DIR/lm_head.json and DIR/lm_head.md; prints each record as a JSON
line. Exits with status 1 when any record is not ok.
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

D, V, EPS, IGNORE = 2048, 32768, 1e-5, -100


def head(x, g, w, targets):
    """examples/lm-head.mlir in PyTorch: f32 logits from the bf16 GEMM."""
    logits = F.linear(F.rms_norm(x, (D,), g, EPS), w)
    if logits.dtype != torch.float64:
        logits = logits.float()
    return F.cross_entropy(logits, targets, ignore_index=IGNORE)


def median_ms(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def measure(bundle, compiled, rows, seed=0):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, D, device="cuda", generator=gen)
    g = 1 + 0.1 * torch.randn(D, device="cuda", generator=gen)
    w = 0.02 * torch.randn(V, D, device="cuda", generator=gen)
    targets = torch.randint(0, V, (rows,), device="cuda", generator=gen)
    targets[::8] = IGNORE
    bf = [t.to(torch.bfloat16) for t in (x, g, w)]
    loss = torch.empty((), device="cuda", dtype=torch.float32)
    buffers = {"arg0": bf[0], "arg1": bf[1], "arg2": bf[2], "arg3": targets}
    result = next(n for n, b in bundle.buffers.items() if b.role == "result")
    buffers[result] = loss
    with torch.no_grad():
        reference = head(*[t.double() for t in bf], targets).item()
        eager = head(*bf, targets).item()
        bundle.run(buffers, rows)
        torch.cuda.synchronize()
        ours = loss.item()
        h = F.rms_norm(bf[0], (D,), bf[1], EPS)
        record = {
            "M": rows,
            "coda_error": abs(ours - reference) / abs(reference),
            "eager_error": abs(eager - reference) / abs(reference),
            "coda_ms": median_ms(lambda: bundle.run(buffers, rows)),
            "eager_ms": median_ms(lambda: head(*bf, targets)),
            "compile_ms": median_ms(lambda: compiled(*bf, targets)),
            "gemm_floor_ms": median_ms(lambda: F.linear(h, bf[2]).float()),
        }
    record["coda_over_floor"] = record["coda_ms"] / record["gemm_floor_ms"]
    record["eager_over_coda"] = record["eager_ms"] / record["coda_ms"]
    record["compile_over_coda"] = record["compile_ms"] / record["coda_ms"]
    record["ok"] = record["coda_error"] <= max(2 * record["eager_error"], 1e-5)
    return record


def table(records):
    lines = ["| M | CODA ms | eager ms | torch.compile ms | GEMM floor ms | CODA / floor "
             "| eager / CODA | compile / CODA | CODA loss error | eager loss error |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines.append(
            f"| {r['M']} | {r['coda_ms']:.3f} | {r['eager_ms']:.3f} | {r['compile_ms']:.3f} "
            f"| {r['gemm_floor_ms']:.3f} | {r['coda_over_floor']:.3f} | {r['eager_over_coda']:.2f} "
            f"| {r['compile_over_coda']:.2f} | {r['coda_error']:.2e} | {r['eager_error']:.2e} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptx")
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 4097, 16384])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    bundle = coda.Bundle(args.ptx)
    compiled = torch.compile(head)
    records = []
    for rows in args.rows:
        record = measure(bundle, compiled, rows)
        print(json.dumps(record), flush=True)
        records.append(record)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "lm_head.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "records": records}, f, indent=1)
    markdown = table(records)
    with open(os.path.join(args.out, "lm_head.md"), "w") as f:
        f.write(markdown)
    print(markdown)
    return 0 if all(r["ok"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
