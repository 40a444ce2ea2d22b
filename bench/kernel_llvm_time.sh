#!/usr/bin/env bash
# Where LLVM spends its time on one generated kernel: the kernel's GPU
# module (coda-opt --convert-coda-to-gpu after the fusion pipeline and the
# planner) lowered the way coda-lower-kernel-modules lowers it, then
# `opt -O3` and `llc -O3` for sm_90a timed on it alone, with llc's
# slowest passes (-time-passes).
#
#   bash bench/kernel_llvm_time.sh FILE.mlir KERNEL [CODA_OPT]
#
# FILE.mlir is a graph-level file (e.g. examples/llama3-1b-block.mlir, or a
# training pair from --coda-generate-backward); KERNEL a kernel name from
# its plan (block_gemm2). bench/NOTES.md §73 used it on the down forward.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
input="${1:?FILE.mlir}"
kernel="${2:?KERNEL}"
coda_opt="${3:-$root/build/bin/coda-opt}"
llvm="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$coda_opt" "$input" --coda-gpu-fuse-pipeline --coda-plan-kernels \
  --convert-coda-to-gpu -o "$work/gpu.mlir"
# The kernel alone in its GPU module, with the file's attribute aliases.
python3 - "$work/gpu.mlir" "$kernel" "$work/kernel.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
aliases = "".join(l + "\n" for l in text.split("\n") if l.startswith("#"))
start = text.index("gpu.module")
depth, end = 0, text.index("{", start)
while True:
    depth += {"{": 1, "}": -1}.get(text[end], 0)
    if depth == 0:
        break
    end += 1
module = text[start:end]  # without its closing brace
header = module[:module.index("    gpu.func")]
funcs = re.split(r"(?=\n    gpu\.func @)", module[len(header):])
body = next(f for f in funcs if re.search(r"gpu\.func @%s\(" % sys.argv[2], f))
open(sys.argv[3], "w").write(aliases + "module attributes {gpu.container_module} {\n"
                             + header + body.rstrip() + "\n  }\n}\n")
PY
"$llvm/mlir-opt" "$work/kernel.mlir" -o "$work/llvm.mlir" --pass-pipeline="builtin.module(gpu.module(convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-nvvm-to-llvm,expand-strided-metadata,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts))"
# The GPU module's body as a module of its own, for mlir-translate.
python3 - "$work/llvm.mlir" "$work/module.mlir" <<'PY'
import sys
text = open(sys.argv[1]).read()
start = text.index("gpu.module")
body = text[text.index("{", text.index("]", start)) + 1:].rstrip()
body = body[:body.rfind("}")].rstrip()
body = body[:body.rfind("}")]
aliases = "".join(l + "\n" for l in text.split("\n") if l.startswith("#"))
open(sys.argv[2], "w").write(aliases + "module {\n" + body + "\n}\n")
PY
"$llvm/mlir-translate" --mlir-to-llvmir "$work/module.mlir" -o "$work/kernel.ll"
/usr/bin/time -f "$kernel opt -O3: %e s" "$llvm/opt" -O3 \
  -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a "$work/kernel.ll" -o "$work/kernel.bc" 2>&1
/usr/bin/time -f "$kernel llc -O3: %e s" "$llvm/llc" -O3 \
  -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 "$work/kernel.bc" \
  -o /dev/null -time-passes 2>&1 |
  awk '/Pass execution timing report/ {report = 1} report && /%\)/ && shown++ < 5 {print} /llc -O3:/ {print}'
