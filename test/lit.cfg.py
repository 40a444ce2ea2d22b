# -*- Python -*- lit configuration for the coda regression tests.

import importlib.util
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CODA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coda_obj_root, "test")

config.substitutions.append(("%coda_src_root", config.coda_src_root))
config.substitutions.append(("%coda_obj_root", config.coda_obj_root))
config.substitutions.append(
    ("%examples", os.path.join(config.coda_src_root, "examples"))
)

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ptxas assembles the generated PTX in the tests that have it (CUDA_ROOT, or
# the toolkit's usual place); without it they are reported unsupported.
cuda_root = os.environ.get("CUDA_ROOT", "/usr/local/cuda")
ptxas = os.path.join(cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    config.environment["CUDA_ROOT"] = cuda_root

tools = ["coda-opt", "coda-translate", "coda-run", "coda-embed",
         "coda-compile-check"]
if config.coda_have_fuzzer:
    config.available_features.add("fuzzer")
    tools.append("coda-fuzz-parse")
# The runtime (libcoda_runtime.so) is built where cuda.h is; test/Runtime
# runs its launch path on a stand-in driver, %fake_cuda.
if config.coda_have_runtime:
    config.available_features.add("coda-runtime")
    tools.append("coda-runtime-check")
    config.substitutions.append(
        ("%fake_cuda", os.path.join(config.coda_obj_root, "lib", "libcoda-fake-cuda.so"))
    )
llvm_config.add_tool_substitutions(tools, [config.coda_tools_dir])

# The coda Python package's tests run under pytest where lit's Python has it
# (Debian's python3-pytest).
if importlib.util.find_spec("pytest"):
    config.available_features.add("pytest")
