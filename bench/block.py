"""The Llama-3-1B block forward and forward+backward on the GPU: CODA against PyTorch.

Forward: runs examples/llama3-1b-block.mlir, compiled by `coda-translate
--coda-to-ptx` (PTX and launch plan), through the CODA runtime (python/coda)
and measures, in one process, per token count M:

  coda        the compiled block: four GEMM-epilogue kernels, two reductions
  eager       the same block in PyTorch eager, bf16
  compile     torch.compile(block) (default mode, static shapes); left out
              with --skip-compile, which leaves its columns empty
  gemm floor  the block's four GEMMs alone in cuBLAS, no epilogue work

timed as the baseline harness times them (triton.testing.do_bench, median of
300 ms of runs after 50 ms of warm-up, no autograd), and the error of CODA and
of eager bf16 against the block in f64 on the same inputs (relative Frobenius
error of each output; the contract of DESIGN.md section 6 is CODA <= 2 x eager).

Forward+backward (--training PAIR.ptx): the block's training pair, derived by
`coda-opt --coda-generate-backward` and compiled the same way (one PTX and
plan holding `block_forward` and `block_backward`, docs/Training.md), in the
same process, per M, on the same inputs and on cotangents of x2 and qkv drawn
N(0, 1) from a seeded generator of their own:

  coda        block_forward (x2, qkv and the saved x1, gate, up, x2), then
              block_backward reading the forward's argument tensors, its
              saved result tensors (bound as they are, no copies) and the
              cotangents: the nine gradients
  eager       block in eager bf16, then torch.autograd.grad of its eight
              tensor arguments (gate and up stacked) for the cotangents
  compile     the same through the torch.compile(block) above (forward and
              backward graphs, compiled on the first call; compile_s is that
              call's time)
  gemm floor  the four GEMMs alone forward and backward through autograd
              (a dgrad and a wgrad GEMM per forward GEMM; as in the baseline
              harness, the backward of the gate half's slice zero-pads its
              gradient to the stacked width), cotangent on its output

each timed as a whole (one forward and one backward per run, with do_bench as
above; torch.autograd.grad, so nothing accumulates in .grad), the four (three
with --skip-compile) in turn for --rounds rounds (default 3), every second round in reverse order:
the GPU runs these steps at its power cap, so its clocks follow what ran just
before, and alternating gives each the same conditions. A time is the median of its rounds, coda_vs_floor the median
of the rounds' ratios (each round's CODA over that round's floor), and
the record keeps every round's times. Errors: of each
of CODA's nine gradients (wg and wu against the halves of the stacked weight's
gradient) and of block_forward's x2 and qkv, against the block in f64 through
torch.autograd on the same inputs and cotangents, with eager bf16's errors
the same way; a record is ok when every one of CODA's errors is <= 2 x eager
bf16's. TFLOP/s counts 3 x the forward's GEMM FLOPs.

usage: python3 bench/block.py [BLOCK.ptx] [--training PAIR.ptx]
                              [--skip-forward] [--skip-compile]
                              [--rows 4096 16384 32768] [--rounds 3] [--out DIR]

BLOCK.ptx and PAIR.ptx each have their plan beside them (NAME.plan.json).
Writes DIR/block.json, DIR/block.md (the table) and DIR/block.png (the plot)
for the forward, unless --skip-forward; DIR/block_training.json,
DIR/block_training.md and DIR/block_training.png for forward+backward with
--training. Prints each record as a JSON line when it is measured. Exits
with status 1 when any record is not ok.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

import torch
import torch._dynamo
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
# The block's results, in order.
RESULTS = ["x2", "qkv"]
# The functions of the training pair (docs/Training.md).
FORWARD_FUNCTION, BACKWARD_FUNCTION = "block_forward", "block_backward"
TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
# The GEMM FLOPs of one forward over one row.
FLOPS_PER_ROW = 2 * (D * D + 2 * FF * D + FF * D + QKV * D)


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


def make_cotangents(m, seed=1):
    """The cotangents of the block's results x2 [M, D] and qkv [M, QKV]:
    N(0, 1), from a generator of their own seed."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return [torch.randn(m, D, device="cuda", generator=g),
            torch.randn(m, QKV, device="cuda", generator=g)]


def torch_args(inputs, dtype):
    """`block`'s arguments in `dtype`: gate and up stacked, RoPE tables
    [M, HD] (rotate-half)."""
    x0, y0, wo, g1, wg, wu, wd, g2, wqkv = [inputs[n].to(dtype)
                                            for n in TENSOR_ARGUMENTS]
    full = torch.cat((inputs["angles"], inputs["angles"]), dim=-1)
    return [x0, y0, wo, g1, torch.cat((wg, wu)), wd, g2, wqkv,
            full.cos().to(dtype), full.sin().to(dtype)]


def coda_arguments(inputs):
    """The block's argument buffers by plan name: arg0..arg8 bf16, arg9 and
    arg10 the f32 [M, 32] RoPE tables."""
    values = [inputs[n].bfloat16().contiguous() for n in TENSOR_ARGUMENTS]
    values += [inputs["angles"].cos().float().contiguous(),
               inputs["angles"].sin().float().contiguous()]
    return {f"arg{i}": v for i, v in enumerate(values)}


def coda_buffers(bundle, inputs, rows):
    """The bundle's argument buffers (bf16, f32 [M, 32] RoPE tables) and
    result buffers, by plan name."""
    buffers = coda_arguments(inputs)
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
        if compiled is not None:
            record["compile_ms"] = median_ms(lambda: compiled(*args))
        record["gemm_floor_ms"] = median_ms(lambda: gemms_only(y0, wo, w1, wd, wqkv))
    add_ratios(record, FLOPS_PER_ROW * rows)
    record["ok"] = record["coda_error"] <= 2 * record["eager_error"]
    return record


def add_ratios(record, flops):
    """CODA's TFLOP/s for `flops` and the time ratios, into `record`."""
    record["coda_tflops"] = flops / record["coda_ms"] / 1e9
    record["coda_vs_floor"] = record["coda_ms"] / record["gemm_floor_ms"]
    record["eager_speedup"] = record["eager_ms"] / record["coda_ms"]
    if "compile_ms" in record:
        record["compile_speedup"] = record["compile_ms"] / record["coda_ms"]


def plan_results(ptx, function):
    """The buffer names of `function`'s results, in the function's result
    order, from the plan beside `ptx` (as coda.Bundle finds it): a buffer
    holding several results is named once for each, an argument returned as
    it is by its argument buffer."""
    with open(Path(ptx).with_suffix(".plan.json")) as f:
        plan = json.load(f)
    for entry in plan["functions"]:
        if entry["name"] == function:
            return list(entry["results"])
    raise ValueError(f"{ptx}: no function '{function}' in its plan")


def argument_count(bundle):
    """The number of arguments of the bundle's function."""
    return sum(b.role == "argument" for b in bundle.buffers.values())


def check_pair(forward, backward, forward_results, backward_results):
    """Raises unless the pair has the interface measure_training binds:
    block_forward takes the block's arguments and returns the block's
    results and then the saved values; block_backward takes the block's
    arguments, the saved values and one cotangent per result, and returns
    one gradient per tensor argument."""
    block_arguments = len(TENSOR_ARGUMENTS) + 2
    if argument_count(forward) != block_arguments:
        raise ValueError(f"{FORWARD_FUNCTION} takes {argument_count(forward)} "
                         f"arguments, expected {block_arguments}")
    saved = len(forward_results) - len(RESULTS)
    arguments = argument_count(backward)
    expected = block_arguments + saved + len(RESULTS)
    if saved < 0 or arguments != expected:
        raise ValueError(
            f"{BACKWARD_FUNCTION} takes {arguments} arguments; with "
            f"{FORWARD_FUNCTION}'s {len(forward_results)} results it should "
            f"take {expected}")
    if len(backward_results) != len(TENSOR_ARGUMENTS):
        raise ValueError(
            f"{BACKWARD_FUNCTION} returns {len(backward_results)} results, "
            f"expected {len(TENSOR_ARGUMENTS)} gradients")


def result_tensors(bundle, names, buffers, rows):
    """The tensors of the results `names` (plan_results' list), in order,
    adding to `buffers` those it allocates: an argument returned as it is
    is its buffer's tensor; a buffer holding several results is one tensor.
    Allocated ones are filled with NaN, so that a result no kernel writes
    fails the check."""
    tensors = []
    for name in names:
        if name not in buffers:
            buffer = bundle.buffers[name]
            buffers[name] = torch.full(buffer.shape_for(rows), math.nan,
                                       device="cuda",
                                       dtype=TORCH_DTYPES[buffer.dtype])
        tensors.append(buffers[name])
    return tensors


def training_buffers(pair, inputs, cotangents, rows):
    """The buffers of the forward's and of the backward's runs, by plan
    name, and the tensors of their results in order (the forward's: x2,
    qkv, then the saved values; the backward's: the nine gradients). The
    backward's arguments are the forward's argument tensors, its saved
    result tensors and the bf16 cotangents, bound as they are."""
    forward, backward, forward_results, backward_results = pair
    arguments = coda_arguments(inputs)
    forward_buffers = dict(arguments)
    outputs = result_tensors(forward, forward_results, forward_buffers, rows)
    backward_buffers = dict(arguments)
    extra = outputs[len(RESULTS):] + [c.bfloat16().contiguous() for c in cotangents]
    for i, tensor in enumerate(extra, start=len(arguments)):
        backward_buffers[f"arg{i}"] = tensor
    gradients = result_tensors(backward, backward_results, backward_buffers, rows)
    return forward_buffers, backward_buffers, outputs, gradients


def training_step(pair, forward_buffers, backward_buffers, rows):
    """One CODA training step over `rows` rows: the forward's run, then the
    backward's, on the buffers of training_buffers."""
    forward, backward = pair[:2]

    def step():
        forward.run(forward_buffers, rows)
        backward.run(backward_buffers, rows)

    return step


def leaf_arguments(inputs, dtype):
    """`block`'s arguments in `dtype` (torch_args) and those that get a
    gradient, all but the RoPE tables, as leaves requiring it."""
    args = torch_args(inputs, dtype)
    return args, [a.requires_grad_() for a in args[:8]]


def gradients(fn, args, leaves, cotangents):
    """One forward of `fn` and its backward for `cotangents`: the gradients
    of `leaves` (torch.autograd.grad: nothing accumulates in .grad)."""
    return torch.autograd.grad(fn(*args), leaves, cotangents)


def block_gradients(inputs, cotangents, dtype):
    """`block`'s results and the gradients of its nine tensor arguments (wg
    and wu the halves of the stacked weight's), computed in `dtype` through
    torch.autograd."""
    args, leaves = leaf_arguments(inputs, dtype)
    cotangents = [c.to(dtype) for c in cotangents]
    outputs = block(*args)
    dx0, dy0, dwo, dg1, dw1, dwd, dg2, dwqkv = torch.autograd.grad(
        outputs, leaves, cotangents)
    return ([o.detach() for o in outputs],
            [dx0, dy0, dwo, dg1, dw1[:FF], dw1[FF:], dwd, dg2, dwqkv])


def errors(values, references, names):
    """relative_error of each value, by name."""
    return {n: relative_error(v, r) for n, v, r in zip(names, values, references)}


def worst(by_name):
    """The largest of the errors, NaN if any is."""
    values = list(by_name.values())
    return math.nan if any(math.isnan(e) for e in values) else max(values)


def training_errors(inputs, cotangents, outputs, coda_gradients):
    """The errors of CODA's forward results (x2, qkv) and gradients and of
    eager bf16's, against the block in f64 through torch.autograd."""
    reference, reference_gradients = block_gradients(inputs, cotangents, torch.float64)
    eager, eager_gradients = block_gradients(inputs, cotangents, torch.bfloat16)
    return {
        "coda_forward_errors": errors(outputs[:len(RESULTS)], reference, RESULTS),
        "eager_forward_errors": errors(eager, reference, RESULTS),
        "coda_grad_errors": errors(coda_gradients, reference_gradients, TENSOR_ARGUMENTS),
        "eager_grad_errors": errors(eager_gradients, reference_gradients, TENSOR_ARGUMENTS),
    }


def failed_checks(record):
    """The forward results and gradients whose CODA error is not within 2 x
    eager bf16's (a NaN error fails)."""
    failed = []
    for kind in ("forward", "grad"):
        coda_errors = record[f"coda_{kind}_errors"]
        eager_errors = record[f"eager_{kind}_errors"]
        failed += [f"{kind} {name}" for name, error in coda_errors.items()
                   if not error <= 2 * eager_errors[name]]
    return failed


def seconds(fn):
    """The time of one call of `fn` (with the GPU's work), in s."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return round(time.perf_counter() - start, 1)


def alternate(timed, rounds):
    """median_ms of each of the named `timed` functions, the functions in
    turn for `rounds` rounds, every second round in reverse order, so that
    each function follows a different one from round to round: per name,
    the list of its rounds' times."""
    names = list(timed)
    times = {name: [] for name in names}
    for round_index in range(rounds):
        for name in names if round_index % 2 == 0 else names[::-1]:
            times[name].append(median_ms(timed[name]))
    return times


def measure_training(pair, compiled, rows, rounds):
    """One forward+backward record at `rows` rows: the errors of CODA and
    eager bf16 against f64, then the four timings, alternated for `rounds`
    rounds."""
    inputs = make_inputs(rows)
    cotangents = make_cotangents(rows)
    forward_buffers, backward_buffers, outputs, coda_gradients = training_buffers(
        pair, inputs, cotangents, rows)

    coda_step = training_step(pair, forward_buffers, backward_buffers, rows)
    coda_step()
    torch.cuda.synchronize()
    record = {"M": rows}
    record.update(training_errors(inputs, cotangents, outputs, coda_gradients))
    record["coda_forward_error"] = worst(record["coda_forward_errors"])
    record["eager_forward_error"] = worst(record["eager_forward_errors"])
    record["coda_grad_error"] = worst(record["coda_grad_errors"])
    record["eager_grad_error"] = worst(record["eager_grad_errors"])
    torch.cuda.empty_cache()

    args, leaves = leaf_arguments(inputs, torch.bfloat16)
    dx2, dqkv = [c.bfloat16() for c in cotangents]
    _, y0, wo, _, w1, wd, _, wqkv, _, _ = args
    floor_leaves = [y0, wo, w1, wd, wqkv]
    timed = {
        "coda": coda_step,
        "eager": lambda: gradients(block, args, leaves, [dx2, dqkv]),
        "gemm_floor": lambda: gradients(gemms_only, floor_leaves, floor_leaves, [dqkv]),
    }
    if compiled is not None:
        timed["compile"] = lambda: gradients(compiled, args, leaves, [dx2, dqkv])
        record["compile_s"] = seconds(timed["compile"])
    times = alternate(timed, rounds)
    for name, values in times.items():
        record[f"{name}_ms"] = statistics.median(values)
        record[f"{name}_rounds_ms"] = values
    add_ratios(record, 3 * FLOPS_PER_ROW * rows)
    record["coda_vs_floor"] = statistics.median(
        c / f for c, f in zip(times["coda"], times["gemm_floor"]))
    record["failed"] = failed_checks(record)
    record["ok"] = not record["failed"]
    return record


def table(records, error="error", keys=("coda_error", "eager_error")):
    """The records as a markdown table; the error columns are CODA's and
    eager's `error`, the records' `keys`."""
    coda_key, eager_key = keys
    lines = [
        "| M | CODA ms | eager ms | torch.compile ms | GEMM floor ms | CODA / floor "
        f"| eager / CODA | compile / CODA | CODA TFLOP/s | CODA {error} | eager {error} |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        # Without torch.compile (--skip-compile) its columns stay empty.
        compile_ms = f"{r['compile_ms']:.3f}" if "compile_ms" in r else "-"
        compile_speedup = f"{r['compile_speedup']:.2f}" if "compile_ms" in r else "-"
        lines.append(
            f"| {r['M']} | {r['coda_ms']:.3f} | {r['eager_ms']:.3f} | {compile_ms} "
            f"| {r['gemm_floor_ms']:.3f} | {r['coda_vs_floor']:.3f} | {r['eager_speedup']:.2f} "
            f"| {compile_speedup} | {r['coda_tflops']:.0f} | {r[coda_key]:.2e} "
            f"| {r[eager_key]:.2e} |")
    return "\n".join(lines) + "\n"


def plot(records, path, what="forward"):
    """Each time of `records` over the GEMM floor's, as bars per M, titled
    with what was timed (`what`) and the GPU."""
    title = f"Llama-3-1B block {what}, {torch.cuda.get_device_name()}, bf16"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plot", file=sys.stderr)
        return
    labels = [str(r["M"]) for r in records]
    series = [(name, key) for name, key in
              [("CODA", "coda_ms"), ("eager", "eager_ms"),
               ("torch.compile", "compile_ms"), ("GEMM floor", "gemm_floor_ms")]
              if all(key in r for r in records)]
    width = 0.2
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, (name, key) in enumerate(series):
        ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(records))],
               [r[key] / r["gemm_floor_ms"] for r in records], width, label=name)
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xticks(range(len(records)), labels)
    ax.set_xlabel("tokens M")
    ax.set_ylabel("time / GEMM-only floor")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def allow_recompiles(count):
    """Lets torch.compile keep `count` graphs of `block` (one per M and grad
    mode): past dynamo's recompile limit it would run the block eagerly."""
    config = torch._dynamo.config
    name = "recompile_limit" if hasattr(config, "recompile_limit") else "cache_size_limit"
    setattr(config, name, max(getattr(config, name), count))


def write(records, out, name, extra=None):
    """Writes OUT/NAME.json: the device, torch's version, `extra` and the
    records."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   **(extra or {}), "records": records}, f, indent=1)


def run_forward(ptx, compiled, rows_list, out):
    """The forward table: block.json, block.md, block.png."""
    bundle = coda.Bundle(ptx)
    records = []
    for rows in rows_list:
        record = measure(bundle, compiled, rows)
        print(json.dumps(record), flush=True)
        records.append(record)
    write(records, out, "block")
    markdown = table(records)
    with open(os.path.join(out, "block.md"), "w") as f:
        f.write(markdown)
    plot(records, os.path.join(out, "block.png"))
    print(markdown)
    return records


def load_pair(ptx):
    """The training pair compiled into `ptx` (its plan beside it): the
    forward's and the backward's bundles and result names (plan_results),
    checked against the interface measure_training binds (check_pair)."""
    forward = coda.Bundle(ptx, function=FORWARD_FUNCTION)
    backward = coda.Bundle(ptx, function=BACKWARD_FUNCTION)
    forward_results = plan_results(ptx, FORWARD_FUNCTION)
    backward_results = plan_results(ptx, BACKWARD_FUNCTION)
    check_pair(forward, backward, forward_results, backward_results)
    return forward, backward, forward_results, backward_results


def run_training(ptx, compiled, rows_list, out, rounds):
    """The forward+backward table: block_training.json, block_training.md,
    block_training.png."""
    pair = load_pair(ptx)
    forward_results, backward_results = pair[2:]
    records = []
    for rows in rows_list:
        record = measure_training(pair, compiled, rows, rounds)
        print(json.dumps(record), flush=True)
        records.append(record)
    write(records, out, "block_training", {
        "pass": "fwd+bwd",
        "reference": "block in f64 through torch.autograd, at every M",
        "forward_results": forward_results,
        "backward_results": backward_results,
    })
    markdown = table(records, "max grad error", ("coda_grad_error", "eager_grad_error"))
    with open(os.path.join(out, "block_training.md"), "w") as f:
        f.write(markdown)
    plot(records, os.path.join(out, "block_training.png"), "forward+backward")
    print(markdown)
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", nargs="?",
                        help="the block's PTX; its plan is beside it")
    parser.add_argument("--training", metavar="PAIR.ptx",
                        help="the training pair's PTX (block_forward and "
                             "block_backward); its plan is beside it")
    parser.add_argument("--skip-forward", action="store_true",
                        help="leave out the forward table")
    parser.add_argument("--rows", type=int, nargs="+", default=[4096, 16384, 32768])
    parser.add_argument("--rounds", type=int, default=3,
                        help="forward+backward: rounds of the four timings "
                             "(three with --skip-compile) in turn (default 3)")
    parser.add_argument("--skip-compile", action="store_true",
                        help="leave out torch.compile (its columns stay empty): "
                             "its first compile of each M takes minutes on a "
                             "fresh machine, and comparing compilers needs "
                             "only CODA, eager and the floor")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    options = parser.parse_args()
    if not options.skip_forward and options.ptx is None:
        parser.error("the block's PTX is needed unless --skip-forward")
    if options.skip_forward and options.training is None:
        parser.error("--skip-forward leaves nothing to measure without --training")

    compiled = None
    if not options.skip_compile:
        allow_recompiles(2 * len(options.rows) + 2)
        compiled = torch.compile(block, dynamic=False)
    records = []
    if not options.skip_forward:
        records += run_forward(options.ptx, compiled, options.rows, options.out)
    if options.training is not None:
        if options.rounds < 1:
            parser.error("--rounds must be at least 1")
        records += run_training(options.training, compiled, options.rows, options.out,
                                options.rounds)
    return 0 if all(r["ok"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
