"""Checks and times CODA-generated kernels on the GPU.

Runs the functions that `coda-translate --coda-to-ptx` compiled, from the
PTX and the launch plan it wrote beside it (`<name>.plan.json`): buffers of
random bf16 inputs, TMA tensor maps built through the CUDA driver API, the
kernels launched in the plan's order. Every kernel's outputs are compared
with PyTorch on the inputs that kernel saw (f64 reference; pass: relative
error <= max(1e-5, 2 x eager bf16's error)); kernels are timed against
torch.matmul (cuBLAS) on the same GEMM shape, in the same run.

usage: python3 gemm_kernel_check.py CASES.json [--out DIR]

CASES.json lists cases: {"ptx": file, "function": name, "m": M,
"check": "plain" | "bias_silu_residual" | "oproj" | "oproj_n200" |
"gpt2_mlp" | "layer_norm_after_gemm" | "block",
"time": bool}.
"""

import argparse
import ctypes
import json
import math
import os
import statistics
import sys

import torch

CUDA = ctypes.CDLL("libcuda.so.1")
TMA_TYPES = {"bf16": 9, "f16": 6}  # CU_TENSOR_MAP_DATA_TYPE_*
SWIZZLE_128B = 3
L2_PROMOTION_256B = 3
MAX_DYNAMIC_SHARED = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
EPS = 1e-5
SMS = 0  # multiprocessors of the GPU, set in main


def check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        CUDA.cuGetErrorString(result, ctypes.byref(name))
        raise RuntimeError(f"{what}: CUDA error {result} ({name.value.decode()})")


def tensor_map(tensor, box, dtype):
    """A CUtensorMap in device memory over a row-major [rows, cols] tensor:
    boxes of box[0] columns x box[1] rows, 128-byte swizzle, zero fill."""
    rows, cols = tensor.shape
    desc = (ctypes.c_uint8 * 128)()
    dims = (ctypes.c_uint64 * 2)(cols, rows)
    strides = (ctypes.c_uint64 * 1)(cols * tensor.element_size())
    box_dims = (ctypes.c_uint32 * 2)(*box)
    elems = (ctypes.c_uint32 * 2)(1, 1)
    check(CUDA.cuTensorMapEncodeTiled(
        desc, TMA_TYPES[dtype], 2, ctypes.c_void_p(tensor.data_ptr()), dims,
        strides, box_dims, elems, 0, SWIZZLE_128B, L2_PROMOTION_256B, 0),
        "cuTensorMapEncodeTiled")
    return torch.tensor(list(bytes(desc)), dtype=torch.uint8, device="cuda")


class Module:
    """A PTX file loaded by the driver, and its launch plan."""

    def __init__(self, ptx_path):
        with open(ptx_path, "rb") as f:
            image = f.read() + b"\0"
        self.handle = ctypes.c_void_p()
        check(CUDA.cuModuleLoadData(ctypes.byref(self.handle), image),
              "cuModuleLoadData")
        with open(os.path.splitext(ptx_path)[0] + ".plan.json") as f:
            self.plan = json.load(f)
        self.functions = {}

    def function(self, kernel):
        name = kernel["name"]
        if name not in self.functions:
            function = ctypes.c_void_p()
            check(CUDA.cuModuleGetFunction(ctypes.byref(function), self.handle,
                                           name.encode()), "cuModuleGetFunction")
            if kernel["shared_bytes"]:
                check(CUDA.cuFuncSetAttribute(function, MAX_DYNAMIC_SHARED,
                                              kernel["shared_bytes"]),
                      "cuFuncSetAttribute")
            self.functions[name] = function
        return self.functions[name]


def launched_kernel(kernel, rows):
    """The plan's kernel over `rows` rows, or its kernel of 128 x 256 tiles
    (its "wide" entry) where those fill fewer rounds of its min(tiles x
    splits, SMs) CTAs, as the runtime chooses."""
    wide = kernel.get("wide")
    if wide is None:
        return kernel

    def tiles(entry):
        return -(-rows // entry["rows_per_tile"]) * entry["tiles_n"]

    ctas = min(tiles(kernel) * kernel.get("splits", 1), SMS)
    return wide if -(-tiles(wide) // ctas) < -(-tiles(kernel) // ctas) else kernel


class Launch:
    """One kernel of a plan bound to buffers: tensor maps built once."""

    def __init__(self, module, kernel, buffers, types, m):
        # The rows its tiles cover: M, or a static count (a weight
        # gradient's output rows); a row argument passes its own count.
        self.m = m if kernel["rows"] == -1 else kernel["rows"]
        kernel = launched_kernel(kernel, self.m)
        self.function = module.function(kernel)
        self.kernel = kernel
        self.keep = []
        values = []
        for arg in kernel["arguments"]:
            if "tensor_map" in arg:
                name = arg["tensor_map"]
                desc = tensor_map(buffers[name], arg["box"], types[name])
                self.keep.append(desc)
                values.append(ctypes.c_uint64(desc.data_ptr()))
            elif "rows" in arg:
                values.append(ctypes.c_int32(m if arg["rows"] == -1 else arg["rows"]))
            elif "scratch" in arg:
                # Zeroed once; the kernel leaves its counters at zero.
                scratch = torch.zeros(arg["scratch"], device="cuda", dtype=torch.uint8)
                self.keep.append(scratch)
                values.append(ctypes.c_uint64(scratch.data_ptr()))
            else:
                values.append(ctypes.c_uint64(buffers[arg["buffer"]].data_ptr()))
        self.values = values
        self.params = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])

    def __call__(self):
        k = self.kernel
        row_tiles = (self.m + k["rows_per_tile"] - 1) // k["rows_per_tile"]
        if k["persistent"]:
            grid = (min(row_tiles * k["tiles_n"] * k.get("splits", 1), SMS), 1)
        else:
            grid = (row_tiles, k["tiles_n"])
        stream = torch.cuda.current_stream().cuda_stream
        check(CUDA.cuLaunchKernel(
            self.function, grid[0], grid[1], 1, k["block"], 1, 1,
            k["shared_bytes"], ctypes.c_void_p(stream), self.params, None),
            "cuLaunchKernel")


def random_buffers(function, m, gen):
    """Arguments by shape: activations N(0, 1) ([M, n] bf16), weights
    N(0, 0.02^2) ([n, k]), vectors 1 + N(0, 0.1^2), f32 [M, d] tables the
    cosines and sines of random angles (first and second of each pair of
    f32 arguments); results and workspace empty."""
    buffers, types, tables = {}, {}, 0
    for b in function["buffers"]:
        shape = [m if s == -1 else s for s in b["shape"]]
        dtype = DTYPES[b["type"]]
        types[b["name"]] = b["type"]
        if b["role"] != "argument":
            buffers[b["name"]] = torch.empty(shape, device="cuda", dtype=dtype)
            continue
        if b["type"] == "f32":
            angle = torch.rand(shape, device="cuda", generator=gen) * 2 * math.pi
            t = angle.cos() if tables % 2 == 0 else angle.sin()
            tables += 1
        elif len(shape) == 1:
            t = 1 + 0.1 * torch.randn(shape, device="cuda", generator=gen)
        elif b["shape"][0] == -1:
            t = torch.randn(shape, device="cuda", generator=gen)
        else:
            t = 0.02 * torch.randn(shape, device="cuda", generator=gen)
        buffers[b["name"]] = t.to(dtype).contiguous()
    return buffers, types


# References: each takes the kernel's operands as torch tensors (in the
# plan's order: A, weights, inputs) and returns, per output, the f64
# reference and eager PyTorch's value in the operands' dtype.

def tile_sum_squares(x, tile=128):
    m, n = x.shape
    tiles = (n + tile - 1) // tile
    padded = torch.nn.functional.pad(x, (0, tiles * tile - n))
    return (padded.reshape(m, tiles, tile) ** 2).sum(-1)


def rope_half(x, cos, sin, head_dim=64):
    shape = x.shape
    x = x.reshape(shape[0], -1, head_dim)
    x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2:]
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1).reshape(shape)


def ref_plain(a, w):
    return [(a.double() @ w.double().T, a @ w.T)]


def ref_bias_silu_residual(a, w, bias, res):
    def f(a, w, bias, res):
        return torch.nn.functional.silu(a @ w.T + bias) + res
    return [(f(a.double(), w.double(), bias.double(), res.double()),
             f(a, w, bias, res))]


def ref_residual_norm(a, w, res, gamma):
    def f(a, w, res, gamma):
        x1 = res + a @ w.T
        return [x1, tile_sum_squares(x1.float() if x1.dtype != torch.double else x1),
                x1 * gamma]
    ref = f(a.double(), w.double(), res.double(), gamma.double())
    return list(zip(ref, f(a, w, res, gamma)))


def ref_swiglu_rstd(a, wg, wu, rstd):
    def f(a, wg, wu, rstd):
        return torch.nn.functional.silu((a @ wg.T) * rstd) * ((a @ wu.T) * rstd)
    return [(f(a.double(), wg.double(), wu.double(), rstd.double()),
             f(a, wg, wu, rstd.to(a.dtype)))]


def ref_qkv_rope(a, w, rstd, cos, sin):
    def f(a, w, rstd, cos, sin):
        s = (a @ w.T) * rstd
        return torch.cat([rope_half(s[:, :2048], cos, sin),
                          rope_half(s[:, 2048:2560], cos, sin), s[:, 2560:]], -1)
    return [(f(a.double(), w.double(), rstd.double(), cos.double(), sin.double()),
             f(a, w, rstd.to(a.dtype), cos.to(a.dtype), sin.to(a.dtype)))]


def ref_layer_norm_statistics(x, gamma):
    def f(x, gamma):
        mean = x.float().mean(-1, keepdim=True) if x.dtype != torch.double else x.mean(-1, keepdim=True)
        centered = x - mean.to(x.dtype)
        var = (centered.float() if x.dtype != torch.double else centered).pow(2).mean(-1, keepdim=True)
        return [centered * gamma, (var + EPS).rsqrt(), mean]
    return list(zip(f(x.double(), gamma.double()), f(x, gamma)))


def ref_scaled_gelu(a, w, bias, rstd, c):
    def f(a, w, bias, rstd, c):
        return torch.nn.functional.gelu((a @ w.T) * rstd + c + bias,
                                        approximate="tanh")
    return [(f(a.double(), w.double(), bias.double(), rstd.double(), c.double()),
             f(a, w, bias, rstd.to(a.dtype), c.to(a.dtype)))]


def ref_bias_residual(a, w, bias, res):
    def f(a, w, bias, res):
        return res + (a @ w.T + bias)
    return [(f(a.double(), w.double(), bias.double(), res.double()),
             f(a, w, bias, res))]


def tile_centered_squares(x, tile=128):
    m, n = x.shape
    out = []
    for start in range(0, n, tile):
        block = x[:, start:start + tile]
        out.append(((block - block.mean(-1, keepdim=True)) ** 2).sum(-1))
    return torch.stack(out, -1)


def ref_layer_norm_partials(a, w, gamma):
    def f(a, w, gamma):
        y = a @ w.T
        y32 = y if y.dtype == torch.double else y.float()
        return [tile_sums(y32),
                tile_centered_squares(y32), y * gamma]
    return list(zip(f(a.double(), w.double(), gamma.double()), f(a, w, gamma)))


def tile_sums(x, tile=128):
    m, n = x.shape
    tiles = (n + tile - 1) // tile
    padded = torch.nn.functional.pad(x, (0, tiles * tile - n))
    return padded.reshape(m, tiles, tile).sum(-1)


def ref_mean_rstd(sums, centered, count=256, tile=128):
    def f(s, c):
        n = torch.tensor([min(tile, count - j * tile) for j in range(s.shape[1])],
                         dtype=s.dtype, device=s.device)
        mean = s.sum(-1, keepdim=True) / count
        var = (c.sum(-1, keepdim=True)
               + (n * (s / n - mean) ** 2).sum(-1, keepdim=True)) / count
        return [mean, (var + EPS).rsqrt()]
    return list(zip(f(sums.double(), centered.double()), f(sums, centered)))


def ref_layer_norm_apply(a, w, rstd, mean, c_gamma, c_beta):
    def f(a, w, rstd, mean, c_gamma, c_beta):
        return (a @ w.T) * rstd - (rstd * mean) * c_gamma + c_beta
    return [(f(a.double(), w.double(), rstd.double(), mean.double(),
               c_gamma.double(), c_beta.double()),
             f(a, w, rstd.to(a.dtype), mean.to(a.dtype), c_gamma.to(a.dtype),
               c_beta.to(a.dtype)))]


def ref_rstd(partials, count=2048):
    def f(p):
        return (p.sum(-1, keepdim=True) / count + EPS).rsqrt()
    return [(f(partials.double()), f(partials))]


def ref_dgrad(a, w):
    """a @ w with w read as [K, N] (b_layout "kn")."""
    return [((a.double() @ w.double()), a @ w)]


def ref_dgrad_silu_grad(a, w, x):
    """silu'(x) · (a @ w), the product rounded to the operands' type first
    in eager (as the unfused backward does)."""
    def silu_grad(x, d):
        s = torch.sigmoid(x)
        return d * s * (1 + x * (1 - s))
    return [(silu_grad(x.double(), a.double() @ w.double()),
             silu_grad(x.float(), (a @ w).float()).to(a.dtype))]


def ref_wgrad(a, b):
    """a^T @ b, reduced over the rows (a_layout "km", b_layout "kn")."""
    return [((a.double().T @ b.double()), a.T @ b)]


def ref_dgrad_swiglu_grad(a, w, up, gate):
    """dgate = silu'(gate) (da up), dup = silu(gate) da with da = a @ w;
    eager rounds da and da up to the operands' type, as autograd does."""
    def f(a, w, up, gate, rounded):
        da = a @ w
        gated = da * up
        if rounded:
            da, gated = da.to(up.dtype).float(), gated.to(up.dtype).float()
            up, gate = up.float(), gate.float()
        s = torch.sigmoid(gate)
        return gated * s * (1 + gate * (1 - s)), gate * s * da
    ref = f(a.double(), w.double(), up.double(), gate.double(), False)
    eager = [t.to(a.dtype) for t in f(a, w, up, gate, True)]
    return list(zip(ref, eager))


def ref_add(a, b):
    return [(a.double() + b.double(), a + b)]


def ref_swiglu(g, u):
    return [(torch.nn.functional.silu(g.double()) * u.double(),
             torch.nn.functional.silu(g) * u)]


def ref_add_outer(x, col, v):
    return [(x.double() + col.double() * v.double(), x + col * v)]


CHECKS = {
    "plain": {"gemm0": ref_plain},
    "maps": {"map0": ref_add, "map1": ref_swiglu, "map2": ref_add_outer},
    "dgrad_swiglu_grad": {"gemm0": ref_dgrad_swiglu_grad},
    "wgrad": {"gemm0": ref_wgrad},
    "dgrad": {"gemm0": ref_dgrad},
    "dgrad_silu_grad": {"gemm0": ref_dgrad_silu_grad},
    "bias_silu_residual": {"gemm0": ref_bias_silu_residual},
    "oproj": {"gemm0": ref_residual_norm, "reduce0": ref_rstd},
    "oproj_n200": {"gemm0": ref_residual_norm,
                   "reduce0": lambda p: ref_rstd(p, count=200)},
    "layer_norm_after_gemm": {"gemm0": ref_layer_norm_partials,
                              "reduce0": ref_mean_rstd, "gemm1": ref_plain,
                              "gemm2": ref_plain,
                              "gemm3": ref_layer_norm_apply},
    "gpt2_mlp": {"norm0": ref_layer_norm_statistics, "gemm0": ref_plain,
                 "gemm1": ref_scaled_gelu, "gemm2": ref_bias_residual},
    "block": {"gemm0": ref_residual_norm, "reduce0": ref_rstd,
              "gemm1": ref_swiglu_rstd, "gemm2": ref_residual_norm,
              "reduce1": ref_rstd, "gemm3": ref_qkv_rope},
}


def relative_error(value, ref):
    return ((value.double() - ref).norm() / ref.norm()).item()


def time_ms(fn, warmup=10, reps=50):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def run_case(case, base, modules):
    path = os.path.join(base, case["ptx"])
    if path not in modules:
        modules[path] = Module(path)
    module = modules[path]
    function = next(f for f in module.plan["functions"]
                    if f["name"] == case["function"])
    m = case["m"]
    gen = torch.Generator(device="cuda").manual_seed(case.get("seed", 0))
    buffers, types = random_buffers(function, m, gen)
    # Reshapes are views of their operand's memory.
    shapes = {b["name"]: [m if d == -1 else d for d in b["shape"]]
              for b in function["buffers"]}
    for step in function["kernels"]:
        if "alias" in step:
            buffers[step["alias"]] = buffers[step["of"]].reshape(
                shapes[step["alias"]])
    kernels = [k for k in function["kernels"] if "name" in k]
    launches = [Launch(module, k, buffers, types, m) for k in kernels]
    for launch in launches:
        launch()
    torch.cuda.synchronize()

    records = []
    checks = CHECKS[case["check"]]
    for kernel, launch in zip(kernels, launches):
        suffix = kernel["name"][len(function["name"]) + 1:]
        # Operands first (A, weights, inputs), then the results.
        names = [a.get("tensor_map") or a.get("buffer")
                 for a in kernel["arguments"] if "rows" not in a and "scratch" not in a]
        inputs = [buffers[n] for n in names[: len(names) - kernel["results"]]]
        outputs = [buffers[n] for n in names[len(names) - kernel["results"]:]]
        refs = checks[suffix](*inputs)
        errors, eager_errors, ok = [], [], True
        for value, (ref, eager) in zip(outputs, refs):
            error, eager_error = relative_error(value, ref), relative_error(eager, ref)
            errors.append(error)
            eager_errors.append(eager_error)
            ok &= bool(torch.isfinite(value).all()) and error <= max(1e-5, 2 * eager_error)
        # The kernel launched: the plan's, or its kernel of wide tiles.
        record = dict(case=case["function"], ptx=case["ptx"], kernel=launch.kernel["name"],
                      schedule=kernel.get("schedule", ""), m=m, error=max(errors), eager_error=max(eager_errors),
                      errors=errors, eager_errors=eager_errors, ok=ok)
        if case.get("time") and kernel["op"] == "coda.gemm":
            # A and the weights are the tensor maps before the row count.
            rows_at = next(i for i, x in enumerate(kernel["arguments"])
                           if "rows" in x)
            a = inputs[0]
            weights = [buffers[x["tensor_map"]]
                       for x in kernel["arguments"][1:rows_at]]
            # A [K, N] weight (a dgrad, a weight gradient) is concatenated
            # along N; cuBLAS multiplies by it as it is. A weight gradient
            # multiplies a^T ([N, M]) by its [M, K] operand over the M rows
            # and is reported with N and K its output's rows and columns.
            kn = case["check"].startswith(("dgrad", "wgrad"))
            w = torch.cat(weights, dim=1 if kn else 0) if len(weights) > 1 else weights[0]
            b = w if kn else w.T
            wgrad = case["check"] == "wgrad"
            lhs = a.T if wgrad else a
            out = torch.empty(lhs.shape[0], b.shape[1], device="cuda", dtype=a.dtype)
            ours = time_ms(launch)
            cublas = time_ms(lambda: torch.matmul(lhs, b, out=out))
            n, k = (lhs.shape[0], b.shape[1]) if wgrad else (b.shape[1], b.shape[0])
            flops = 2.0 * m * n * k
            record.update(n=n, k=k, ms=ours, cublas_ms=cublas,
                          tflops=flops / ours / 1e9,
                          cublas_tflops=flops / cublas / 1e9, ratio=cublas / ours)
        records.append(record)
    return records


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cases")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)
    base = os.path.dirname(os.path.abspath(args.cases))
    torch.zeros(1, device="cuda")  # the primary context the driver calls use
    global SMS
    SMS = torch.cuda.get_device_properties(0).multi_processor_count
    modules, records = {}, []
    for case in cases:
        records += run_case(case, base, modules)
    # Each fused kernel against our plain GEMM of the same (M, N, K).
    plain = {(r["schedule"], r["m"], r["n"], r["k"]): r["ms"] for r in records
             if "ms" in r and r["case"] == "plain"}
    for r in records:
        key = (r["schedule"], r["m"], r.get("n"), r.get("k"))
        if "ms" in r and r["case"] != "plain" and key in plain:
            r["vs_plain"] = r["ms"] / plain[key]
    print(f"{'kernel':<22} {'schedule':<11} {'M':>6} {'N':>6} {'K':>6} {'error':>9} "
          f"{'eager':>9} {'ok':>3} {'ms':>7} {'cuBLAS':>7} {'ratio':>6} {'/plain':>6}")
    for r in records:
        timing = (f"{r['ms']:7.3f} {r['cublas_ms']:7.3f} {r['ratio']:6.2f}"
                  if "ms" in r else "")
        shape = (f"{r['n']:>6} {r['k']:>6}" if "n" in r else f"{'':>6} {'':>6}")
        vs = f" {r['vs_plain']:6.2f}" if "vs_plain" in r else ""
        print(f"{r['kernel']:<22} {r['schedule']:<11} {r['m']:>6} {shape} {r['error']:9.2e} "
              f"{r['eager_error']:9.2e} {'yes' if r['ok'] else 'NO':>3} {timing}{vs}")
    with open(os.path.join(args.out, "gemm_kernel_check.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__,
                       records=records), f, indent=1)
    sys.exit(0 if all(r["ok"] for r in records) else 1)


if __name__ == "__main__":
    main()
