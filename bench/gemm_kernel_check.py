"""Checks and times CODA-generated GEMM-epilogue kernels on the GPU.

Loads PTX written by `coda-translate --coda-to-ptx` (or the same kernels
lowered by hand), builds the TMA tensor maps through the CUDA driver API,
launches each kernel on random bf16 inputs, compares it with PyTorch, and
times it against torch.matmul (cuBLAS) in the same run.

usage: python3 gemm_kernel_check.py CASES.json [--out DIR]

CASES.json lists cases: {"ptx": file, "kernel": name, "m": M, "n": N,
"k": K, "epilogue": "plain" | "bias_silu_residual", "stages": S,
"time": bool}.
"""

import argparse
import ctypes
import json
import os
import statistics
import sys

import torch

CUDA = ctypes.CDLL("libcuda.so.1")
BF16 = 9  # CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
SWIZZLE_128B = 3
L2_PROMOTION_256B = 3
MAX_DYNAMIC_SHARED = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
TILE_M, TILE_N, TILE_K = 128, 128, 64


def check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        CUDA.cuGetErrorString(result, ctypes.byref(name))
        raise RuntimeError(f"{what}: CUDA error {result} ({name.value.decode()})")


def tensor_map(tensor, box_rows):
    """A 128-byte CUtensorMap over a row-major [rows, cols] bf16 tensor, in
    device memory: boxes of 64 columns x box_rows rows, 128-byte swizzle."""
    rows, cols = tensor.shape
    desc = (ctypes.c_uint8 * 128)()
    dims = (ctypes.c_uint64 * 2)(cols, rows)
    strides = (ctypes.c_uint64 * 1)(cols * 2)
    box = (ctypes.c_uint32 * 2)(TILE_K, box_rows)
    elems = (ctypes.c_uint32 * 2)(1, 1)
    check(CUDA.cuTensorMapEncodeTiled(
        desc, BF16, 2, ctypes.c_void_p(tensor.data_ptr()), dims, strides, box,
        elems, 0, SWIZZLE_128B, L2_PROMOTION_256B, 0), "cuTensorMapEncodeTiled")
    device = torch.tensor(list(bytes(desc)), dtype=torch.uint8, device="cuda")
    return device


def load_kernel(ptx_path, name, shared_bytes):
    with open(ptx_path, "rb") as f:
        image = f.read() + b"\0"
    module = ctypes.c_void_p()
    check(CUDA.cuModuleLoadData(ctypes.byref(module), image), "cuModuleLoadData")
    function = ctypes.c_void_p()
    check(CUDA.cuModuleGetFunction(ctypes.byref(function), module,
                                   name.encode()), "cuModuleGetFunction")
    if shared_bytes:
        check(CUDA.cuFuncSetAttribute(function, MAX_DYNAMIC_SHARED,
                                      shared_bytes), "cuFuncSetAttribute")
    return module, function


def launch(function, m, n, shared_bytes, pointers, rows):
    values = [ctypes.c_uint64(p) for p in pointers[:2]]
    values.append(ctypes.c_int32(rows))
    values += [ctypes.c_uint64(p) for p in pointers[2:]]
    params = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    stream = torch.cuda.current_stream().cuda_stream
    check(CUDA.cuLaunchKernel(
        function, (m + TILE_M - 1) // TILE_M, (n + TILE_N - 1) // TILE_N, 1,
        128, 1, 1, shared_bytes, ctypes.c_void_p(stream), params, None),
        "cuLaunchKernel")


def launch_rows(function, rows, pointers):
    """Launches a kernel of one thread per row: (M, pointers...)."""
    values = [ctypes.c_int32(rows)] + [ctypes.c_uint64(p) for p in pointers]
    params = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    stream = torch.cuda.current_stream().cuda_stream
    check(CUDA.cuLaunchKernel(function, (rows + 127) // 128, 1, 1, 128, 1, 1,
                              0, ctypes.c_void_p(stream), params, None),
          "cuLaunchKernel")


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


def run_case(case, base):
    m, n, k = case["m"], case["n"], case["k"]
    stages = case.get("stages", 4)
    shared = stages * 2 * TILE_M * TILE_K * 2 + 1024
    gen = torch.Generator(device="cuda").manual_seed(case.get("seed", 0))
    x = torch.randn(m, k, device="cuda", generator=gen).bfloat16()
    w = (torch.randn(n, k, device="cuda", generator=gen) * 0.02).bfloat16()
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    # Epilogue inputs, then the outputs besides `out`; `checks` pairs each
    # output with its f64 reference and eager bf16's value.
    inputs, outputs, checks = [], [out], []
    if case["epilogue"] == "bias_silu_residual":
        bias = (1 + 0.1 * torch.randn(n, device="cuda", generator=gen)).bfloat16()
        res = torch.randn(m, n, device="cuda", generator=gen).bfloat16()
        inputs = [bias, res]
        acc = x.double() @ w.double().T + bias.double()
        ref = torch.nn.functional.silu(acc) + res.double()
        eager = (torch.nn.functional.silu(x @ w.T + bias) + res).double()
        checks = [(out, ref, eager)]
    elif case["epilogue"] == "residual_partial_norm":
        res = torch.randn(m, n, device="cuda", generator=gen).bfloat16()
        gamma = (1 + 0.1 * torch.randn(n, device="cuda", generator=gen)).bfloat16()
        inputs = [res, gamma]
        tiles = (n + TILE_N - 1) // TILE_N
        partials = torch.empty(m, tiles, device="cuda", dtype=torch.float32)
        h = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        outputs = [out, partials, h]
        x1 = res.double() + x.double() @ w.double().T
        eager_x1 = res + x @ w.T
        def sum_squares(t):
            padded = torch.nn.functional.pad(t, (0, tiles * TILE_N - n))
            return (padded.view(m, tiles, TILE_N) ** 2).sum(-1)
        checks = [(out, x1, eager_x1.double()),
                  (partials, sum_squares(x1), sum_squares(eager_x1.float()).double()),
                  (h, x1 * gamma.double(), (eager_x1 * gamma).double())]
    else:
        checks = [(out, x.double() @ w.double().T, (x @ w.T).double())]
    map_a, map_b = tensor_map(x, TILE_M), tensor_map(w, TILE_N)
    module, function = load_kernel(os.path.join(base, case["ptx"]),
                                   case["kernel"], shared)
    pointers = [map_a.data_ptr(), map_b.data_ptr()]
    pointers += [t.data_ptr() for t in inputs + outputs]
    run = lambda: launch(function, m, n, shared, pointers, m)
    run()
    if case.get("reduce_kernel"):
        # The reduction that finishes the partials into rstd.
        _, reduce = load_kernel(os.path.join(base, case["ptx"]),
                                case["reduce_kernel"], 0)
        rstd = torch.empty(m, 1, device="cuda", dtype=torch.float32)
        launch_rows(reduce, m, [partials.data_ptr(), rstd.data_ptr()])
        eps = 1e-5
        checks.append((rstd, (x1.pow(2).mean(-1, keepdim=True) + eps).rsqrt(),
                       (eager_x1.float().pow(2).mean(-1, keepdim=True)
                        + eps).rsqrt().double()))
    torch.cuda.synchronize()
    errors, eager_errors, ok = [], [], True
    for value, ref, eager in checks:
        error = ((value.double() - ref).norm() / ref.norm()).item()
        eager_error = ((eager - ref).norm() / ref.norm()).item()
        errors.append(error)
        eager_errors.append(eager_error)
        ok &= bool(torch.isfinite(value).all()) and error <= max(1e-5, 2 * eager_error)
    record = dict(case, error=max(errors), eager_error=max(eager_errors),
                  errors=errors, eager_errors=eager_errors, ok=ok)
    if case.get("time"):
        ours = time_ms(run)
        cublas = time_ms(lambda: torch.matmul(x, w.T, out=out))
        flops = 2.0 * m * n * k
        record.update(ms=ours, cublas_ms=cublas,
                      tflops=flops / ours / 1e9, cublas_tflops=flops / cublas / 1e9,
                      ratio=cublas / ours)
    return record


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cases")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)
    base = os.path.dirname(os.path.abspath(args.cases))
    torch.zeros(1, device="cuda")  # the primary context the driver calls use
    records = [run_case(case, base) for case in cases]
    print(f"{'kernel':<28} {'M':>6} {'N':>6} {'K':>6} {'error':>10} "
          f"{'eager err':>10} {'ok':>4} {'ms':>8} {'cuBLAS ms':>10} {'ratio':>6}")
    for r in records:
        timing = (f"{r['ms']:8.3f} {r['cublas_ms']:10.3f} {r['ratio']:6.2f}"
                  if "ms" in r else "")
        print(f"{r['kernel']:<28} {r['m']:>6} {r['n']:>6} {r['k']:>6} "
              f"{r['error']:10.2e} {r['eager_error']:10.2e} "
              f"{'yes' if r['ok'] else 'NO':>4} {timing}")
    with open(os.path.join(args.out, "gemm_kernel_check.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__,
                       records=records), f, indent=1)
    sys.exit(0 if all(r["ok"] for r in records) else 1)


if __name__ == "__main__":
    main()
