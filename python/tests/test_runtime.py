"""The coda package over the runtime: plan queries and errors on every
machine with the runtime built, runs against PyTorch on a GPU."""

import os
import subprocess
import sys

import pytest

import coda

# Plan queries and errors: no GPU, no torch.


def test_plan_queries(gpt2_mlp):
    bundle = coda.Bundle(str(gpt2_mlp))
    assert bundle.target == "sm_90a"
    assert bundle.kernel_count == 4
    assert bundle.buffers["arg0"] == coda.Buffer(
        "arg0", "bf16", (-1, 768), "argument", None
    )
    assert bundle.buffers["t3"].view_of == "arg2"
    assert bundle.buffers["t7"].role == "result"
    assert bundle.buffers["t7"].shape_for(4097) == (4097, 768)
    assert bundle.workspace_bytes(4097) == 31510528


def test_block_rows():
    # -B: ceil(rows / B) rows, the per-block partials of a sum over rows.
    partials = coda.Buffer("t0", "f32", (-16, 64), "workspace", None)
    assert partials.shape_for(1000) == (63, 64)
    assert partials.shape_for(16) == (1, 64)


def test_invalid_plan(gpt2_mlp, tmp_path):
    plan = tmp_path / "bad.plan.json"
    plan.write_text('{"target": "sm_90a", "functions": [}')
    with pytest.raises(coda.RuntimeError) as error:
        coda.Bundle(str(gpt2_mlp), str(plan))
    assert error.value.status == "CodaErrorInvalidPlan"
    assert "at byte 35: expected a value" in str(error.value)


def test_rows(gpt2_mlp):
    with pytest.raises(coda.RuntimeError, match="must be at least 1"):
        coda.Bundle(str(gpt2_mlp)).workspace_bytes(0)


def test_no_driver(gpt2_mlp):
    # The driver is opened once per process: a fresh one sees the variable.
    script = (
        "import coda, sys\n"
        "try:\n"
        f"    coda.Bundle({str(gpt2_mlp)!r}).reserve(8, stream=0)\n"
        "except coda.RuntimeError as error:\n"
        "    print(error.status, error.message)\n"
    )
    env = dict(os.environ, CODA_RUNTIME_LIBCUDA="/nonexistent/libcuda.so.1")
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True
    )
    assert result.stdout.startswith("CodaErrorNoDriver no CUDA driver"), result


class _FakeTensor:
    """What Bundle's tensor check reads of a torch tensor."""

    def __init__(self, shape, dtype, is_cuda=True, contiguous=True):
        self.shape, self.dtype, self.is_cuda = shape, dtype, is_cuda
        self._contiguous = contiguous

    def is_contiguous(self):
        return self._contiguous


def test_tensor_check_messages():
    # Bundle.run's check of each tensor, against a stand-in for torch: every
    # problem it reports, without torch or a GPU.
    fake_torch = type("FakeTorch", (), {"Tensor": _FakeTensor, "bfloat16": "bf16dtype"})
    buffer = coda.Buffer("x", "bf16", (-1, 64), "argument", None)
    check = coda.Bundle._check_tensor
    check(buffer, _FakeTensor((8, 64), "bf16dtype"), 8, fake_torch)
    with pytest.raises(ValueError, match="buffer 'x': expected a CUDA tensor"):
        check(buffer, object(), 8, fake_torch)
    with pytest.raises(ValueError, match="buffer 'x': expected a CUDA tensor"):
        check(buffer, _FakeTensor((8, 64), "bf16dtype", is_cuda=False), 8, fake_torch)
    with pytest.raises(ValueError) as error:
        check(buffer, _FakeTensor((8, 32), "f32dtype", contiguous=False), 8, fake_torch)
    assert str(error.value) == (
        "buffer 'x': dtype f32dtype, expected bf16dtype; shape (8, 32), expected "
        "(8, 64); not contiguous (the runtime copies nothing)"
    )


def test_no_library(monkeypatch):
    # Where no runtime library is found, the first call says how to get one.
    monkeypatch.setattr(coda.runtime, "_library", None)
    monkeypatch.setattr(coda.runtime, "library_path", lambda: None)
    with pytest.raises(OSError, match="libcoda_runtime.so not found: build it"):
        coda.Bundle("any.ptx")


# Runs on the GPU, against PyTorch.


def relative_error(value, reference):
    return ((value.double() - reference).norm() / reference.norm()).item()


def gpt2_inputs(torch, rows, seed=0):
    """The numerics contract's inputs: activations N(0, 1), weights
    N(0, 0.02^2), vectors 1 + N(0, 0.1^2)."""
    gen = torch.Generator(device="cuda").manual_seed(seed)

    def randn(*shape):
        return torch.randn(*shape, device="cuda", generator=gen)

    return {
        "arg0": randn(rows, 768),
        "arg1": 1 + 0.1 * randn(768),
        "arg2": 1 + 0.1 * randn(768),
        "arg3": 0.02 * randn(3072, 768),
        "arg4": 1 + 0.1 * randn(3072),
        "arg5": 0.02 * randn(768, 3072),
        "arg6": 1 + 0.1 * randn(768),
    }


def gpt2_mlp_reference(torch, x, g, b, w1, b1, w2, b2):
    f = torch.nn.functional
    h = f.layer_norm(x, (768,), g, b, eps=1e-5)
    return x + f.linear(f.gelu(f.linear(h, w1, b1), approximate="tanh"), w2, b2)


@pytest.mark.parametrize("rows", [1000, 4097])
def test_gpt2_mlp_matches_torch(gpt2_mlp, torch_cuda, rows):
    torch = torch_cuda
    inputs = gpt2_inputs(torch, rows)
    args = [inputs[f"arg{i}"] for i in range(7)]
    reference = gpt2_mlp_reference(torch, *[a.double() for a in args])
    bf16 = {name: t.bfloat16().contiguous() for name, t in inputs.items()}
    eager = gpt2_mlp_reference(torch, *[bf16[f"arg{i}"] for i in range(7)])

    bundle = coda.Bundle(str(gpt2_mlp))
    out = torch.empty(rows, 768, device="cuda", dtype=torch.bfloat16)
    bundle.run({**bf16, "t7": out}, rows)
    torch.cuda.synchronize()
    assert torch.isfinite(out).all()
    error = relative_error(out, reference)
    eager_error = relative_error(eager, reference)
    assert error <= max(1e-5, 2 * eager_error), (error, eager_error)

    # Again on the cached tensor maps, and into another output.
    again = torch.empty_like(out)
    bundle.run({**bf16, "t7": again}, rows)
    torch.cuda.synchronize()
    assert torch.equal(again, out)


def test_boundary_runs_between_kernels(attend, torch_cuda):
    """Attention left to the caller: an identity in its place makes the
    function two chained projections."""
    torch = torch_cuda
    rows = 300
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randn(rows, 64, device="cuda", generator=gen).bfloat16()
    wq, wo = (
        (0.1 * torch.randn(64, 64, device="cuda", generator=gen)).bfloat16()
        for _ in range(2)
    )
    steps = []

    def identity(step):
        assert step.op == "coda.attention" and step.rows == rows
        assert len(step.operands) == 3 and step.results[0].shape == (rows, 64)
        # The run's stream, torch's current one, is where the copy goes.
        assert step.stream == torch.cuda.current_stream().cuda_stream
        step.results[0].copy_(step.operands[0])
        steps.append(step.step)

    bundle = coda.Bundle(str(attend))
    bundle.on_boundary(identity)
    out = torch.empty(rows, 64, device="cuda", dtype=torch.bfloat16)
    bundle.run({"arg0": x, "arg1": wq, "arg2": wo, "t2": out}, rows)
    torch.cuda.synchronize()
    assert steps == [1]
    reference = (x.double() @ wq.double().T) @ wo.double().T
    eager = (x @ wq.T) @ wo.T
    error = relative_error(out, reference)
    eager_error = relative_error(eager, reference)
    assert error <= max(1e-5, 2 * eager_error), (error, eager_error)


def test_boundary_exception_stops_the_run(attend, torch_cuda):
    torch = torch_cuda
    bundle = coda.Bundle(str(attend))

    def fail(step):
        raise KeyError("no attention here")

    bundle.on_boundary(fail)
    buffers = {
        "arg0": torch.zeros(8, 64, device="cuda", dtype=torch.bfloat16),
        "arg1": torch.zeros(64, 64, device="cuda", dtype=torch.bfloat16),
        "arg2": torch.zeros(64, 64, device="cuda", dtype=torch.bfloat16),
        "t2": torch.zeros(8, 64, device="cuda", dtype=torch.bfloat16),
    }
    with pytest.raises(KeyError, match="no attention here"):
        bundle.run(buffers, 8)


def test_run_errors(gpt2_mlp, torch_cuda):
    torch = torch_cuda
    bundle = coda.Bundle(str(gpt2_mlp))
    bf16 = {n: t.bfloat16().contiguous() for n, t in gpt2_inputs(torch, 16).items()}
    with pytest.raises(coda.RuntimeError) as error:
        bundle.run(bf16, 16)
    assert error.value.status == "CodaErrorUnboundBuffer"
    assert "buffers not bound: t7" in error.value.message
    out = torch.empty(16, 768, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(coda.RuntimeError, match="has no buffer named 'x'"):
        bundle.run({**bf16, "t7": out, "x": out}, 16)
    with pytest.raises(ValueError, match="shape"):
        bundle.run({**bf16, "t7": out}, 17)
    with pytest.raises(ValueError, match="not contiguous"):
        bundle.run({**bf16, "t7": out.T.contiguous().T}, 16)


def test_run_reuses_bindings_until_a_buffer_changes(gpt2_mlp, torch_cuda):
    torch = torch_cuda
    bundle = coda.Bundle(str(gpt2_mlp))
    bf16 = {n: t.bfloat16().contiguous() for n, t in gpt2_inputs(torch, 16).items()}
    out = torch.empty(16, 768, device="cuda", dtype=torch.bfloat16)
    buffers = {**bf16, "t7": out}
    bundle.run(buffers, 16)
    torch.cuda.synchronize()
    first = out.clone()
    # The same tensors: the bindings of the run before.
    out.zero_()
    bundle.run(buffers, 16)
    torch.cuda.synchronize()
    assert torch.equal(out, first)
    # Another tensor under a name: bound again.
    other = torch.empty_like(out)
    bundle.run({**bf16, "t7": other}, 16)
    torch.cuda.synchronize()
    assert torch.equal(other, first)
    # Another row count, or a tensor resized in place: checked again.
    with pytest.raises(ValueError, match="shape"):
        bundle.run({**bf16, "t7": other}, 17)
    other.resize_(17, 768)
    with pytest.raises(ValueError, match="shape"):
        bundle.run({**bf16, "t7": other}, 16)


def test_device_api_runs_a_bundle(gpt2_mlp, torch_cuda):
    """The runtime's own memory, copy, stream and event calls (what
    coda-run --device cuda is built on), with no torch memory in the run:
    the GPT-2 MLP from host inputs to a host result, checked against
    PyTorch, and timed with the runtime's events."""
    import ctypes

    torch = torch_cuda
    lib = ctypes.CDLL(coda.runtime.library_path())
    u64, status = ctypes.c_uint64, ctypes.c_int
    lib.codaContextRetain.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
    lib.codaContextRelease.argtypes = [ctypes.c_int]
    lib.codaMemoryAllocate.argtypes = [ctypes.c_size_t, ctypes.POINTER(u64)]
    lib.codaMemoryFree.argtypes = [u64]
    lib.codaMemoryCopyToDevice.argtypes = [u64, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    lib.codaMemoryCopyToHost.argtypes = [ctypes.c_void_p, u64, ctypes.c_size_t, ctypes.c_void_p]
    lib.codaStreamSynchronize.argtypes = [ctypes.c_void_p]
    lib.codaEventCreate.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.codaEventDestroy.argtypes = [ctypes.c_void_p]
    lib.codaEventRecord.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.codaEventElapsedMs.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)]
    lib.codaSessionBind.argtypes = [ctypes.c_void_p, ctypes.c_char_p, u64]
    lib.codaSessionLaunch.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
    for function in ("codaContextRetain", "codaContextRelease", "codaMemoryAllocate",
                     "codaMemoryFree", "codaMemoryCopyToDevice", "codaMemoryCopyToHost",
                     "codaStreamSynchronize", "codaEventCreate", "codaEventDestroy",
                     "codaEventRecord", "codaEventElapsedMs", "codaSessionBind",
                     "codaSessionLaunch"):
        getattr(lib, function).restype = status

    def check(result):
        assert result == 0, coda.runtime._lib().codaGetLastError().decode()

    rows = 1000
    inputs = gpt2_inputs(torch, rows, seed=3)
    args = [inputs[f"arg{i}"] for i in range(7)]
    reference = gpt2_mlp_reference(torch, *[a.double() for a in args])
    eager = gpt2_mlp_reference(torch, *[a.bfloat16() for a in args])
    host = {name: t.bfloat16().cpu().contiguous() for name, t in inputs.items()}

    context = ctypes.c_void_p()
    check(lib.codaContextRetain(0, ctypes.byref(context)))
    bundle = coda.Bundle(str(gpt2_mlp))
    addresses = {}
    try:
        for name, tensor in host.items():
            address = u64()
            check(lib.codaMemoryAllocate(tensor.numel() * 2, ctypes.byref(address)))
            addresses[name] = address.value
            check(lib.codaMemoryCopyToDevice(address, tensor.data_ptr(), tensor.numel() * 2, None))
        result_bytes = rows * 768 * 2
        address = u64()
        check(lib.codaMemoryAllocate(result_bytes, ctypes.byref(address)))
        addresses["t7"] = address.value
        for name, value in addresses.items():
            check(lib.codaSessionBind(bundle._session, name.encode(), value))
        start, end = ctypes.c_void_p(), ctypes.c_void_p()
        check(lib.codaEventCreate(ctypes.byref(start)))
        check(lib.codaEventCreate(ctypes.byref(end)))
        check(lib.codaEventRecord(start, None))
        check(lib.codaSessionLaunch(bundle._session, rows, None))
        check(lib.codaEventRecord(end, None))
        milliseconds = ctypes.c_float()
        check(lib.codaEventElapsedMs(start, end, ctypes.byref(milliseconds)))
        assert milliseconds.value > 0
        out = torch.empty(rows, 768, dtype=torch.bfloat16)
        check(lib.codaMemoryCopyToHost(out.data_ptr(), addresses["t7"], result_bytes, None))
        check(lib.codaStreamSynchronize(None))
        check(lib.codaEventDestroy(start))
        check(lib.codaEventDestroy(end))
    finally:
        bundle.close()
        for value in addresses.values():
            lib.codaMemoryFree(value)
        lib.codaContextRelease(0)
    error = relative_error(out.cuda(), reference)
    assert error <= max(1e-5, 2 * relative_error(eager, reference)), error
