"""Where the LM head's loss bias comes from (bench/NOTES.md §31).

  python3 bench/lm_head_bias.py rows PTX     PTX of bench/lm_head_row_losses.mlir
  python3 bench/lm_head_bias.py logits PTX   PTX of bench/lm_head_with_logits.mlir
  python3 bench/lm_head_bias.py split PTX    PTX of bench/lm_head_with_logits.mlir

(each PTX from `coda-translate --coda-to-ptx FILE.mlir -o FILE.ptx`, its
plan beside it). Inputs as bench/lm_head.py draws them (seed 0): x N(0, 1),
gamma 1 + N(0, 0.1^2), W N(0, 0.02^2), targets uniform, one row in eight
-100.

rows    at 4097 and 16384 rows, CODA's and eager's per-row losses against
        f64: signed mean, RMS and largest error, and the worst row.
logits  at 4097 rows, CODA's stored f32 logits against f64 (signed mean
        relative to |logit|: negative is a shrink), the loss computed in
        f64 from those logits against the reference, and CODA's loss
        against that loss (the epilogue's own error).
split   at 1024 rows, reading the norm's output h (t0) back from the
        workspace: h against eager's bf16 rms_norm, CODA's logits against
        the f64 GEMM of its own h, cuBLAS's logits of the same h, and that
        f64 GEMM against the reference logits. (Before the first-layer
        RMSNorm kept its kernel, t0 was A = bf16(x * gamma) and t1 rstd:
        NOTES §31 has that run.)
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import coda  # noqa: E402

D, V, EPS, IGNORE = 2048, 32768, 1e-5, -100


def inputs(rows, ignore=True):
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(rows, D, device="cuda", generator=g)
    gm = 1 + 0.1 * torch.randn(D, device="cuda", generator=g)
    w = 0.02 * torch.randn(V, D, device="cuda", generator=g)
    t = torch.randint(0, V, (rows,), device="cuda", generator=g)
    if ignore:
        t[::8] = IGNORE
    return [v.to(torch.bfloat16) for v in (x, gm, w)], t


def reference_logits(bf):
    xd = [v.double() for v in bf]
    return F.linear(F.rms_norm(xd[0], (D,), xd[1], EPS), xd[2])


def signed_relative(error, reference):
    return (error * reference.sign()).mean().item() / reference.abs().mean().item()


def results_by_rank(bundle):
    return {len(b.shape): n for n, b in bundle.buffers.items() if b.role == "result"}


def rows_mode(bundle):
    result = results_by_rank(bundle)[1]
    for rows in (4097, 16384):
        bf, t = inputs(rows)
        out = torch.empty(rows, device="cuda")
        bundle.run({"arg0": bf[0], "arg1": bf[1], "arg2": bf[2], "arg3": t, result: out}, rows)
        torch.cuda.synchronize()
        ref = F.cross_entropy(reference_logits(bf), t, ignore_index=IGNORE, reduction="none")
        eager = F.cross_entropy(F.linear(F.rms_norm(bf[0], (D,), bf[1], EPS), bf[2]).float(), t,
                                ignore_index=IGNORE, reduction="none").double()
        for name, value in (("coda", out.double()), ("eager", eager)):
            e = value - ref
            print(rows, name, "mean signed %.3e" % e.mean().item(),
                  "rms %.3e" % e.pow(2).mean().sqrt().item(), "max %.3e" % e.abs().max().item(),
                  "rows>1e-2: %d" % (e.abs() > 1e-2).sum().item(), "argmax", e.abs().argmax().item())
        i = (out.double() - ref).abs().argmax().item()
        print("worst row", i, "target", t[i].item(), "coda", out[i].item(), "ref", ref[i].item(),
              "eager", eager[i].item())


def logits_mode(bundle):
    ranks = results_by_rank(bundle)
    rows = 4097
    bf, t = inputs(rows)
    loss = torch.empty(rows, device="cuda")
    logits = torch.empty(rows, V, device="cuda")
    bundle.run({"arg0": bf[0], "arg1": bf[1], "arg2": bf[2], "arg3": t, ranks[1]: loss,
                ranks[2]: logits}, rows)
    torch.cuda.synchronize()
    ref_logits = reference_logits(bf)
    ref = F.cross_entropy(ref_logits, t, ignore_index=IGNORE, reduction="none")
    e = logits.double() - ref_logits
    print("logits: mean signed %.3e, rms %.3e, mean signed relative %.3e, |ref| rms %.3e" % (
        e.mean().item(), e.pow(2).mean().sqrt().item(), signed_relative(e, ref_logits),
        ref_logits.pow(2).mean().sqrt().item()))
    from_logits = F.cross_entropy(logits.double(), t, ignore_index=IGNORE, reduction="none")
    d = from_logits - ref
    print("loss from CODA's logits in f64 - ref: mean signed %.3e rms %.3e" % (
        d.mean().item(), d.pow(2).mean().sqrt().item()))
    d = loss.double() - from_logits
    print("CODA loss - loss from CODA's logits: mean signed %.3e rms %.3e max %.3e" % (
        d.mean().item(), d.pow(2).mean().sqrt().item(), d.abs().max().item()))


def split_mode(bundle):
    ranks = results_by_rank(bundle)
    rows = 1024
    bf, t = inputs(rows, ignore=False)
    loss = torch.empty(rows, device="cuda")
    logits = torch.empty(rows, V, device="cuda")
    h = torch.empty(rows, D, device="cuda", dtype=torch.bfloat16)
    bundle.run({"arg0": bf[0], "arg1": bf[1], "arg2": bf[2], "arg3": t, ranks[1]: loss,
                ranks[2]: logits, "t0": h}, rows)
    torch.cuda.synchronize()
    eager_h = F.rms_norm(bf[0], (D,), bf[1], EPS)
    print("h == eager's bf16 rms_norm: %s (%.2e of the elements differ)" % (
        torch.equal(h, eager_h), (h != eager_h).double().mean().item()))
    exact = h.double() @ bf[2].double().t()
    for name, value in (("CODA", logits.double()),
                        ("cuBLAS bf16 out", (h @ bf[2].t()).double())):
        e = value - exact
        print("%s logits vs the f64 GEMM of CODA's h: mean signed relative %.3e rms %.3e"
              % (name, signed_relative(e, exact), e.pow(2).mean().sqrt().item()))
    ref_logits = reference_logits(bf)
    print("the f64 GEMM of CODA's h vs the reference logits: mean signed relative %.3e"
          % signed_relative(exact - ref_logits, ref_logits))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("rows", "logits", "split"):
        print(__doc__, file=sys.stderr)
        return 2
    bundle = coda.Bundle(sys.argv[2])
    {"rows": rows_mode, "logits": logits_mode, "split": split_mode}[sys.argv[1]](bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
