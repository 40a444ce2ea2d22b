"""The LM head and its loss on the GPU, forward and forward+backward: CODA against PyTorch.

Forward: runs `lm_head` of examples/lm-head.mlir (final RMSNorm, a linear
to a 32768-token vocabulary with f32 logits, the mean cross-entropy
ignoring targets of -100), compiled by `coda-translate --coda-to-ptx` (PTX
and launch plan), through the CODA runtime, and per token count M, in one
process:

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

Forward+backward (--training PAIR.ptx): the head's training pair, derived
by `coda-opt --coda-generate-backward` and compiled the same way (one PTX
and plan holding `lm_head_forward` and `lm_head_backward`,
docs/Training.md), per M, on the same inputs and a loss cotangent dloss =
1 + 0.5 N(0, 1) (clamped to [0.5, 1.5]) from a generator of its own seed:

  coda        lm_head_forward (the loss, then the saved per-row
              log-sum-exps lse), then lm_head_backward reading the
              forward's argument tensors, its lse tensor (bound as it is,
              no copy) and dloss: dx, dg, dw
  eager       the head in eager as above, then torch.autograd.grad of x,
              gamma and W for dloss
  compile     the same through torch.compile(head, dynamic=False) (forward
              and backward graphs, compiled on the first call; compile_s is
              that call's time)
  gemm floor  the head's three GEMMs alone in cuBLAS on operands made
              beforehand: the logits h W^T (bf16 in, f32 out, as the
              forward's floor), the dgrad dlogits W and the wgrad
              dlogits^T h, with dlogits the head's own bf16 gradient of the
              logits for these inputs and dloss
  floor+recompute
              the same with the logits GEMM run twice: lm_head_backward
              recomputes the logits rather than reading saved ones

each timed as bench/block.py times its pair (three calls, then do_bench as
above; one forward and one backward per run, torch.autograd.grad, so
nothing accumulates in .grad). Errors: of CODA's loss and of its three
gradients against the head in f64 through torch.autograd on the same
inputs and dloss, with eager bf16's the same way (relative Frobenius
error, as bench/block.py); a record is ok when each of CODA's errors is
<= 2 x eager bf16's of the same tensor or below 1e-5. TFLOP/s counts 3 x
the forward's GEMM FLOPs (not the recomputed logits). A training record
holds, besides the times, dloss, coda_forward_errors and
eager_forward_errors ({"loss": ...}), coda_grad_errors and
eager_grad_errors ({"x", "g", "w"}: of dx, dg, dw), their maxima
coda_grad_error and eager_grad_error, and failed (the tensors out of the
contract).

usage: python3 bench/lm_head.py [LM_HEAD.ptx] [--training PAIR.ptx]
                                [--skip-forward] [--rows 1000 4097 16384]
                                [--out DIR]
       python3 bench/lm_head.py --training PAIR.ptx --once
                                --rows 37 1000 4097
                                (the pair once per M, for compute-sanitizer)

LM_HEAD.ptx and PAIR.ptx each have their plan beside them (NAME.plan.json).
Writes DIR/lm_head.json and DIR/lm_head.md for the forward, unless
--skip-forward; DIR/lm_head_training.json and DIR/lm_head_training.md (the
table, then each record's errors per tensor) for forward+backward with
--training. Prints each record as a JSON line. Exits with status 1 when any
record is not ok.
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F
import triton.testing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block as bench  # noqa: E402
import coda  # noqa: E402

D, V, EPS, IGNORE = 2048, 32768, 1e-5, -100
# The functions of the training pair (docs/Training.md).
FORWARD_FUNCTION, BACKWARD_FUNCTION = "lm_head_forward", "lm_head_backward"
# The head's arguments that get a gradient, in argument order (the targets
# get none), and the forward's one result before its saved values.
GRADIENT_ARGUMENTS = ["x", "g", "w"]
RESULT = "loss"
# The GEMM FLOPs of one forward over one row.
FLOPS_PER_ROW = 2 * V * D


def head(x, g, w, targets):
    """examples/lm-head.mlir in PyTorch: f32 logits from the bf16 GEMM."""
    logits = F.linear(F.rms_norm(x, (D,), g, EPS), w)
    if logits.dtype != torch.float64:
        logits = logits.float()
    return F.cross_entropy(logits, targets, ignore_index=IGNORE)


def logits_gemm(h, w):
    """The floor's logits GEMM: bf16 in, f32 out."""
    return F.linear(h, w).float()


def median_ms(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def within_contract(ours, eager):
    """Whether CODA's error is <= 2 x eager bf16's or below 1e-5 (a NaN
    error is not)."""
    return ours <= max(2 * eager, 1e-5)


def make_inputs(rows, seed=0):
    """x, gamma and W drawn in f32 and rounded to bf16, and the targets
    (module docstring)."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, D, device="cuda", generator=gen)
    g = 1 + 0.1 * torch.randn(D, device="cuda", generator=gen)
    w = 0.02 * torch.randn(V, D, device="cuda", generator=gen)
    targets = torch.randint(0, V, (rows,), device="cuda", generator=gen)
    targets[::8] = IGNORE
    return [t.to(torch.bfloat16) for t in (x, g, w)], targets


def measure(bundle, compiled, rows, seed=0):
    bf, targets = make_inputs(rows, seed)
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
            "gemm_floor_ms": median_ms(lambda: logits_gemm(h, bf[2])),
        }
    record["coda_over_floor"] = record["coda_ms"] / record["gemm_floor_ms"]
    record["eager_over_coda"] = record["eager_ms"] / record["coda_ms"]
    record["compile_over_coda"] = record["compile_ms"] / record["coda_ms"]
    record["ok"] = within_contract(record["coda_error"], record["eager_error"])
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


def make_dloss(seed=1):
    """The loss's cotangent, an f32 scalar 1 + 0.5 N(0, 1) clamped to
    [0.5, 1.5] (never 0), from a generator of its own seed."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    return 1 + 0.5 * torch.randn((), device="cuda", generator=gen).clamp(-1, 1)


def check_pair(forward, backward, forward_results, backward_results):
    """Raises unless the pair has the interface training_buffers binds:
    lm_head_forward takes the head's four arguments and returns the loss,
    then the saved values; lm_head_backward takes the four arguments, the
    saved values and dloss, and returns dx, dg, dw."""
    arguments = len(GRADIENT_ARGUMENTS) + 1
    saved = len(forward_results) - 1
    if saved < 0:
        raise ValueError(f"{FORWARD_FUNCTION} returns no results")
    counts = [
        (f"{FORWARD_FUNCTION}'s arguments", bench.argument_count(forward), arguments),
        (f"{BACKWARD_FUNCTION}'s arguments", bench.argument_count(backward),
         arguments + saved + 1),
        (f"{BACKWARD_FUNCTION}'s results", len(backward_results), len(GRADIENT_ARGUMENTS)),
    ]
    for what, found, expected in counts:
        if found != expected:
            raise ValueError(f"{what}: {found}, expected {expected} (with "
                             f"{FORWARD_FUNCTION}'s {len(forward_results)} results)")


def training_buffers(pair, bf, targets, dloss, rows):
    """The buffers of the forward's and of the backward's runs, by plan
    name, and the tensors of their results in order (the forward's: the
    loss, then the saved values; the backward's: dx, dg, dw). The backward's
    arguments are the forward's argument tensors, its saved result tensors
    and dloss, bound as they are."""
    forward, backward, forward_results, backward_results = pair
    arguments = {f"arg{i}": t for i, t in enumerate(bf + [targets])}
    forward_buffers = dict(arguments)
    outputs = bench.result_tensors(forward, forward_results, forward_buffers, rows)
    backward_buffers = dict(arguments)
    for i, tensor in enumerate(outputs[1:] + [dloss], start=len(arguments)):
        backward_buffers[f"arg{i}"] = tensor
    gradients = bench.result_tensors(backward, backward_results, backward_buffers, rows)
    return forward_buffers, backward_buffers, outputs, gradients


def head_gradients(bf, targets, dloss, dtype):
    """The head's loss and the gradients of x, gamma and W for the
    cotangent dloss, computed in `dtype` through torch.autograd (bf16: as
    eager runs it, f32 logits)."""
    leaves = [t.detach().to(dtype).requires_grad_() for t in bf]
    loss = head(*leaves, targets)
    gradients = torch.autograd.grad(loss, leaves, dloss.to(loss.dtype))
    return loss.detach(), list(gradients)


def training_errors(bf, targets, dloss, loss, coda_gradients):
    """The errors of CODA's loss and gradients and of eager bf16's, against
    the head in f64 through torch.autograd."""
    reference_loss, reference_gradients = head_gradients(bf, targets, dloss, torch.float64)
    eager_loss, eager_gradients = head_gradients(bf, targets, dloss, torch.bfloat16)
    return {
        "coda_forward_errors": {RESULT: bench.relative_error(loss, reference_loss)},
        "eager_forward_errors": {RESULT: bench.relative_error(eager_loss, reference_loss)},
        "coda_grad_errors": bench.errors(coda_gradients, reference_gradients,
                                         GRADIENT_ARGUMENTS),
        "eager_grad_errors": bench.errors(eager_gradients, reference_gradients,
                                          GRADIENT_ARGUMENTS),
    }


def tensor_errors(record):
    """(label, CODA's error, eager bf16's error) of the loss and of each
    gradient."""
    return [(name if kind == "forward" else f"d{name}", error,
             record[f"eager_{kind}_errors"][name])
            for kind in ("forward", "grad")
            for name, error in record[f"coda_{kind}_errors"].items()]


def floor_operands(bf, targets, dloss):
    """The floor's operands: h = rms_norm(x) * gamma in bf16 and the head's
    gradient of the logits for `dloss`, rounded to bf16."""
    h = F.rms_norm(bf[0], (D,), bf[1], EPS)
    logits = logits_gemm(h, bf[2]).requires_grad_()
    loss = F.cross_entropy(logits, targets, ignore_index=IGNORE)
    (dlogits,) = torch.autograd.grad(loss, logits, dloss)
    return h, dlogits.bfloat16()


def training_gemms(h, w, dlogits, recompute=False):
    """The head's GEMMs in training, nothing between them: the logits
    (twice with `recompute`), the dgrad dlogits W and the wgrad
    dlogits^T h."""
    for _ in range(2 if recompute else 1):
        logits_gemm(h, w)
    return dlogits @ w, dlogits.t() @ h


def measure_training(pair, compiled, rows):
    """One forward+backward record at `rows` rows: the errors of CODA and
    eager bf16 against f64, then the five timings."""
    forward, backward = pair[:2]
    bf, targets = make_inputs(rows)
    dloss = make_dloss()
    forward_buffers, backward_buffers, outputs, coda_gradients = training_buffers(
        pair, bf, targets, dloss, rows)

    def coda_step():
        forward.run(forward_buffers, rows)
        backward.run(backward_buffers, rows)

    coda_step()
    torch.cuda.synchronize()
    record = {"M": rows, "dloss": dloss.item()}
    record.update(training_errors(bf, targets, dloss, outputs[0], coda_gradients))
    for who in ("coda", "eager"):
        for kind in ("forward", "grad"):
            record[f"{who}_{kind}_error"] = bench.worst(record[f"{who}_{kind}_errors"])
    torch.cuda.empty_cache()

    leaves = [t.detach().requires_grad_() for t in bf]
    args = leaves + [targets]
    h, dlogits = floor_operands(bf, targets, dloss)
    w = bf[2]
    record["coda_ms"] = bench.median_ms(coda_step)
    record["eager_ms"] = bench.median_ms(lambda: bench.gradients(head, args, leaves, dloss))
    record["compile_s"] = bench.seconds(lambda: bench.gradients(compiled, args, leaves, dloss))
    record["compile_ms"] = bench.median_ms(
        lambda: bench.gradients(compiled, args, leaves, dloss))
    record["gemm_floor_ms"] = bench.median_ms(lambda: training_gemms(h, w, dlogits))
    record["gemm_floor_recompute_ms"] = bench.median_ms(
        lambda: training_gemms(h, w, dlogits, recompute=True))
    bench.add_ratios(record, 3 * FLOPS_PER_ROW * rows)
    record["coda_vs_floor_recompute"] = record["coda_ms"] / record["gemm_floor_recompute_ms"]
    record["failed"] = [label for label, ours, eager in tensor_errors(record)
                        if not within_contract(ours, eager)]
    record["ok"] = not record["failed"]
    return record


def training_table(records):
    """The forward+backward records as a markdown table, then each one's
    errors per tensor."""
    lines = [
        "| M | CODA ms | eager ms | torch.compile ms | GEMM floor ms | floor+recompute ms "
        "| CODA / floor | eager / CODA | compile / CODA | CODA max grad error "
        "| eager max grad error |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        lines.append(
            f"| {r['M']} | {r['coda_ms']:.3f} | {r['eager_ms']:.3f} | {r['compile_ms']:.3f} "
            f"| {r['gemm_floor_ms']:.3f} | {r['gemm_floor_recompute_ms']:.3f} "
            f"| {r['coda_vs_floor']:.3f} | {r['eager_speedup']:.2f} "
            f"| {r['compile_speedup']:.2f} | {r['coda_grad_error']:.2e} "
            f"| {r['eager_grad_error']:.2e} |")
    lines += ["", "| M | tensor | CODA error | eager error | ok |", "|---|---|---|---|---|"]
    for r in records:
        for label, ours, eager in tensor_errors(r):
            ok = "yes" if within_contract(ours, eager) else "no"
            lines.append(f"| {r['M']} | {label} | {ours:.2e} | {eager:.2e} | {ok} |")
    return "\n".join(lines) + "\n"


def write_markdown(markdown, out, name):
    with open(os.path.join(out, f"{name}.md"), "w") as f:
        f.write(markdown)
    print(markdown)


def run_forward(ptx, rows_list, out):
    """The forward table: lm_head.json, lm_head.md."""
    bundle = coda.Bundle(ptx)
    compiled = torch.compile(head)
    records = []
    for rows in rows_list:
        record = measure(bundle, compiled, rows)
        print(json.dumps(record), flush=True)
        records.append(record)
    bench.write(records, out, "lm_head")
    write_markdown(table(records), out, "lm_head")
    return records


def load_pair(ptx):
    """The training pair of `ptx`: its forward and backward bundles and
    their plans' result names, checked against what training_buffers
    binds."""
    forward = coda.Bundle(ptx, function=FORWARD_FUNCTION)
    backward = coda.Bundle(ptx, function=BACKWARD_FUNCTION)
    forward_results = bench.plan_results(ptx, FORWARD_FUNCTION)
    backward_results = bench.plan_results(ptx, BACKWARD_FUNCTION)
    check_pair(forward, backward, forward_results, backward_results)
    return forward, backward, forward_results, backward_results


def run_once(ptx, rows_list):
    """The training pair once at each M, nothing checked or timed: the run
    compute-sanitizer watches."""
    pair = load_pair(ptx)
    forward, backward = pair[:2]
    for rows in rows_list:
        bf, targets = make_inputs(rows)
        forward_buffers, backward_buffers, _, _ = training_buffers(
            pair, bf, targets, make_dloss(), rows)
        forward.run(forward_buffers, rows)
        backward.run(backward_buffers, rows)
        torch.cuda.synchronize()
        print(f"ran the LM head pair at {rows} rows", flush=True)


def run_training(ptx, rows_list, out):
    """The forward+backward table: lm_head_training.json,
    lm_head_training.md."""
    pair = load_pair(ptx)
    forward_results, backward_results = pair[2:]
    compiled = torch.compile(head, dynamic=False)
    records = []
    for rows in rows_list:
        record = measure_training(pair, compiled, rows)
        print(json.dumps(record), flush=True)
        records.append(record)
    bench.write(records, out, "lm_head_training", {
        "pass": "fwd+bwd",
        "reference": "head in f64 through torch.autograd, at every M",
        "forward_results": forward_results,
        "backward_results": backward_results,
    })
    write_markdown(training_table(records), out, "lm_head_training")
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", nargs="?",
                        help="the head's PTX; its plan is beside it")
    parser.add_argument("--training", metavar="PAIR.ptx",
                        help="the training pair's PTX (lm_head_forward and "
                             "lm_head_backward); its plan is beside it")
    parser.add_argument("--skip-forward", action="store_true",
                        help="leave out the forward table")
    parser.add_argument("--once", action="store_true",
                        help="run the training pair once at each row count "
                             "and stop (for compute-sanitizer)")
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 4097, 16384])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    options = parser.parse_args()
    if options.once:
        if options.training is None:
            parser.error("--once runs the training pair: give --training")
        run_once(options.training, options.rows)
        return 0
    if not options.skip_forward and options.ptx is None:
        parser.error("the head's PTX is needed unless --skip-forward")
    if options.skip_forward and options.training is None:
        parser.error("--skip-forward leaves nothing to measure without --training")

    # Dynamo keeps `head`'s graphs of both modes in one cache: the
    # forward's (no grad) and one per M for forward+backward.
    bench.allow_recompiles(2 * len(options.rows) + 2)
    records = []
    if not options.skip_forward:
        records += run_forward(options.ptx, options.rows, options.out)
    if options.training is not None:
        records += run_training(options.training, options.rows, options.out)
    return 0 if all(r["ok"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
