"""Fixtures of the coda package tests: the built tools and bundles compiled
from the examples. A test is skipped, saying why, when what it needs is
missing: the runtime library, coda-translate with CUDA's libdevice, torch,
or a GPU."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import coda.runtime  # noqa: E402

BUILD = Path(os.environ.get("CODA_BUILD_DIR", ROOT / "build"))


@pytest.fixture(scope="session")
def runtime_library():
    path = coda.runtime.library_path()
    if path is None:
        pytest.skip("libcoda_runtime.so is not built (it needs cuda.h)")
    return path


@pytest.fixture(scope="session")
def compile_example(tmp_path_factory, runtime_library):
    """Compiles an .mlir file with coda-translate to PTX and its plan, or
    takes NAME.ptx and NAME.plan.json from $CODA_BUNDLE_DIR (a GPU machine
    without MLIR runs bundles compiled elsewhere)."""
    bundles = os.environ.get("CODA_BUNDLE_DIR")
    if bundles:

        def prebuilt(source: Path) -> Path:
            ptx = Path(bundles) / (source.stem + ".ptx")
            if not ptx.exists():
                pytest.skip(f"{ptx} is missing from CODA_BUNDLE_DIR")
            return ptx

        return prebuilt
    translate = BUILD / "bin" / "coda-translate"
    if not translate.exists():
        pytest.skip("coda-translate is not built")
    out = tmp_path_factory.mktemp("bundles")

    def compile_(source: Path) -> Path:
        ptx = out / (source.stem + ".ptx")
        if not ptx.exists():
            result = subprocess.run(
                [str(translate), "--coda-to-ptx", str(source), "-o", str(ptx)],
                capture_output=True,
                text=True,
            )
            if result.returncode != 0:
                pytest.skip(f"coda-translate failed (CUDA_ROOT?): {result.stderr}")
        return ptx

    return compile_


@pytest.fixture(scope="session")
def gpt2_mlp(compile_example):
    return compile_example(ROOT / "examples" / "gpt2-mlp.mlir")


@pytest.fixture(scope="session")
def attend(compile_example):
    return compile_example(ROOT / "test" / "Runtime" / "Inputs" / "attend.mlir")


@pytest.fixture(scope="session")
def torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    torch.zeros(1, device="cuda")  # the primary context the runtime uses
    return torch
