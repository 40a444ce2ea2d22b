"""Times the standalone elementwise kernels of bench/gemm_cases/elementwise.mlir
(the residual add over M x 2048 and SwiGLU over M x 8192, bf16) against
PyTorch eager and torch.compile, in one process, on the H200.

    bash bench/gemm_kernel_check.sh      # build machine: PTX and plans
    python3 bench/elementwise_bench.py   # GPU machine

Correctness is gemm_kernel_check.py's (cases_elementwise.json); this prints
the medians of CUDA-event times and the bandwidth counting bytes read and
written.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_kernel_check as g  # noqa: E402


def main():
    torch.zeros(1, device="cuda")
    g.SMS = torch.cuda.get_device_properties(0).multi_processor_count
    base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gemm_cases")
    module = g.Module(os.path.join(base, "out/cooperative/elementwise.ptx"))
    function = next(f for f in module.plan["functions"] if f["name"] == "maps")
    silu_mul = torch.compile(lambda x, y: torch.nn.functional.silu(x) * y)

    def bandwidth(tensor, ms):
        return 3 * tensor.numel() * tensor.element_size() / (ms * 1e-3) / 1e12

    for m in (4096, 16384):
        gen = torch.Generator(device="cuda").manual_seed(0)
        buffers, types = g.random_buffers(function, m, gen)
        kernels = [k for k in function["kernels"] if "name" in k]
        launches = [g.Launch(module, k, buffers, types, m) for k in kernels]
        a, b = buffers["arg0"], buffers["arg1"]
        gate, up = buffers["arg2"], buffers["arg3"]
        add_ms = g.time_ms(launches[0])
        swiglu_ms = g.time_ms(launches[1])
        eager_add = g.time_ms(lambda: a + b)
        eager_swiglu = g.time_ms(lambda: torch.nn.functional.silu(gate) * up)
        silu_mul(gate, up)
        compiled_swiglu = g.time_ms(lambda: silu_mul(gate, up))
        print(f"M={m}: add ours {add_ms:.3f} ms ({bandwidth(a, add_ms):.2f} TB/s), "
              f"eager {eager_add:.3f}; swiglu ours {swiglu_ms:.3f} ms "
              f"({bandwidth(gate, swiglu_ms):.2f} TB/s), eager {eager_swiglu:.3f}, "
              f"compile {compiled_swiglu:.3f}")


if __name__ == "__main__":
    main()
