"""Where the LM head's loss bias comes from (bench/NOTES.md §31).

Runs bench/lm_head_with_logits.mlir (compile it with `coda-translate
--coda-to-ptx bench/lm_head_with_logits.mlir -o build/lmdiag/lm_both.ptx`)
through the runtime at 1024 rows, binding its workspace so that the
norm's output A = bf16(x * gamma) (t0) and rstd (t1) can be read back,
and prints, against f64:

  rstd            CODA's per-row rstd against rsqrt(mean(x^2) + eps)
  A               whether CODA's A is bf16(x * gamma) exactly
  CODA logits     against the f64 GEMM of CODA's own A, times its rstd
                  (the GEMM kernel's own error, signed mean relative to
                  |logit|: a negative mean is a shrink)
  cuBLAS          the same GEMM by cuBLAS, f32 and bf16 out
  A and rstd      the f64 GEMM of CODA's A and rstd against the reference

usage: python3 bench/lm_head_logits_check.py build/lmdiag/lm_both.ptx
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import coda  # noqa: E402

D, V, EPS = 2048, 32768, 1e-5
b = coda.Bundle(sys.argv[1])
rows = 1024
g = torch.Generator(device="cuda").manual_seed(0)
x = torch.randn(rows, D, device="cuda", generator=g)
gm = 1 + 0.1 * torch.randn(D, device="cuda", generator=g)
w = 0.02 * torch.randn(V, D, device="cuda", generator=g)
t = torch.randint(0, V, (rows,), device="cuda", generator=g)
bf = [v.to(torch.bfloat16) for v in (x, gm, w)]
loss = torch.empty(rows, device="cuda")
logits = torch.empty(rows, V, device="cuda")
a = torch.empty(rows, D, device="cuda", dtype=torch.bfloat16)
rstd = torch.empty(rows, 1, device="cuda")
b.run({"arg0": bf[0], "arg1": bf[1], "arg2": bf[2], "arg3": t, "t7": loss, "t2": logits, "t0": a, "t1": rstd}, rows)
torch.cuda.synchronize()
xd = [v.double() for v in bf]
rstd_ref = torch.rsqrt(xd[0].pow(2).mean(1, keepdim=True) + EPS)
print("rstd: mean relative %.3e max %.3e" % (((rstd.double() - rstd_ref) / rstd_ref).mean().item(), ((rstd.double() - rstd_ref) / rstd_ref).abs().max().item()))
a_ref = (bf[0].float() * bf[1].float()).to(torch.bfloat16)
print("A == bf16(x*g):", torch.equal(a, a_ref), "A vs x*g in f64: mean signed rel %.3e" % (((a.double() - xd[0] * xd[1]) * (xd[0] * xd[1]).sign()).mean().item() / (xd[0] * xd[1]).abs().mean().item()))
exact = (a.double() @ xd[2].t()) * rstd.double()
e = logits.double() - exact
print("CODA logits vs f64 GEMM of CODA's own A and rstd: mean signed rel %.3e rms %.3e" % ((e * exact.sign()).mean().item() / exact.abs().mean().item(), e.pow(2).mean().sqrt().item()))
try:
    cub = torch.mm(a, bf[2].t(), out_dtype=torch.float32).double() * rstd.double()
    e2 = cub - exact
    print("cuBLAS f32-out of the same A: mean signed rel %.3e rms %.3e" % ((e2 * exact.sign()).mean().item() / exact.abs().mean().item(), e2.pow(2).mean().sqrt().item()))
except Exception as ex:
    print("no out_dtype mm:", ex)
cubb = (a @ bf[2].t()).double() * rstd.double()
e3 = cubb - exact
print("cuBLAS bf16-out of the same A: mean signed rel %.3e rms %.3e" % ((e3 * exact.sign()).mean().item() / exact.abs().mean().item(), e3.pow(2).mean().sqrt().item()))
ref_logits = F.linear(F.rms_norm(xd[0], (D,), xd[1], EPS), xd[2])
e4 = exact - ref_logits
print("f64 GEMM of CODA's A and rstd vs the reference logits: mean signed rel %.3e" % ((e4 * ref_logits.sign()).mean().item() / ref_logits.abs().mean().item()))
