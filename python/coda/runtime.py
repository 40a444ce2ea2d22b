"""ctypes bindings of the CODA runtime's C API (include/coda-runtime).

The library is $CODA_RUNTIME_LIBRARY, else build/lib/libcoda_runtime.so of
this checkout ($CODA_BUILD_DIR, default build/), else the system's. torch
is needed only to run (tensors and the current stream), not to load a
bundle or query its plan.
"""

from __future__ import annotations

import builtins
import ctypes
import ctypes.util
import os
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

_ROLES = ("argument", "result", "workspace")
_TORCH_DTYPES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32",
                 "i32": "int32", "i64": "int64"}
# __cuda_array_interface__ has no bfloat16: bf16 goes as int16 and is
# viewed back.
_ARRAY_TYPES = {"bf16": "<i2", "f16": "<f2", "f32": "<f4", "i32": "<i4", "i64": "<i8"}


class RuntimeError(builtins.RuntimeError):
    """A runtime call failed. `status` is the CodaStatus name (e.g.
    "CodaErrorNoDriver"); the message is the runtime's."""

    def __init__(self, status: str, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class _CodaBoundary(ctypes.Structure):
    _fields_ = [
        ("op", ctypes.c_char_p),
        ("step", ctypes.c_size_t),
        ("rows", ctypes.c_int64),
        ("stream", ctypes.c_void_p),
        ("num_operands", ctypes.c_size_t),
        ("operand_names", ctypes.POINTER(ctypes.c_char_p)),
        ("operands", ctypes.POINTER(ctypes.c_uint64)),
        ("num_results", ctypes.c_size_t),
        ("result_names", ctypes.POINTER(ctypes.c_char_p)),
        ("results", ctypes.POINTER(ctypes.c_uint64)),
    ]


_CALLBACK = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_CodaBoundary)
)

_P = ctypes.c_void_p
_STATUS = ctypes.c_int
# name: (result type, argument types)
_SIGNATURES = {
    "codaStatusName": (ctypes.c_char_p, [_STATUS]),
    "codaGetLastError": (ctypes.c_char_p, []),
    "codaBundleLoad": (
        _STATUS,
        [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_P)],
    ),
    "codaBundleDestroy": (None, [_P]),
    "codaBundleTarget": (ctypes.c_char_p, [_P]),
    "codaSessionCreate": (_STATUS, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "codaSessionDestroy": (None, [_P]),
    "codaSessionBufferCount": (ctypes.c_size_t, [_P]),
    "codaSessionBufferName": (ctypes.c_char_p, [_P, ctypes.c_size_t]),
    "codaSessionBufferType": (ctypes.c_char_p, [_P, ctypes.c_size_t]),
    "codaSessionBufferRole": (ctypes.c_int, [_P, ctypes.c_size_t]),
    "codaSessionBufferRank": (ctypes.c_size_t, [_P, ctypes.c_size_t]),
    "codaSessionBufferDim": (ctypes.c_int64, [_P, ctypes.c_size_t, ctypes.c_size_t]),
    "codaSessionBufferViewOf": (ctypes.c_char_p, [_P, ctypes.c_size_t]),
    "codaSessionKernelCount": (ctypes.c_size_t, [_P]),
    "codaSessionWorkspaceBytes": (
        _STATUS,
        [_P, ctypes.c_int64, ctypes.POINTER(ctypes.c_size_t)],
    ),
    "codaSessionBind": (_STATUS, [_P, ctypes.c_char_p, ctypes.c_uint64]),
    "codaSessionUnbindAll": (None, [_P]),
    "codaSessionSetBoundaryCallback": (None, [_P, _CALLBACK, _P]),
    "codaSessionReserve": (_STATUS, [_P, ctypes.c_int64, _P]),
    "codaSessionLaunch": (_STATUS, [_P, ctypes.c_int64, _P]),
}

_library: Optional[ctypes.CDLL] = None


def library_path() -> Optional[str]:
    """Where the runtime library is, or None when it is nowhere."""
    path = os.environ.get("CODA_RUNTIME_LIBRARY")
    if path:
        return path
    root = Path(__file__).resolve().parents[2]
    build = Path(os.environ.get("CODA_BUILD_DIR", root / "build"))
    local = build / "lib" / "libcoda_runtime.so"
    if local.exists():
        return str(local)
    return ctypes.util.find_library("coda_runtime")


def _lib() -> ctypes.CDLL:
    global _library
    if _library is None:
        path = library_path()
        if path is None:
            raise OSError(
                "libcoda_runtime.so not found: build it (scripts/build.sh) "
                "or set CODA_RUNTIME_LIBRARY"
            )
        library = ctypes.CDLL(path)
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(library, name)
            function.restype = restype
            function.argtypes = argtypes
        _library = library
    return _library


def _check(status: int) -> None:
    if status != 0:
        lib = _lib()
        raise RuntimeError(
            lib.codaStatusName(status).decode(), lib.codaGetLastError().decode()
        )


@dataclass(frozen=True)
class Buffer:
    """A buffer of the plan: a negative first size -B is ceil(rows / B)
    rows (-1: the row count itself)."""

    name: str
    dtype: str
    shape: Tuple[int, ...]
    role: str
    view_of: Optional[str]

    def shape_for(self, rows: int) -> Tuple[int, ...]:
        return tuple(-(rows // size) if size < 0 else size for size in self.shape)


@dataclass
class Boundary:
    """A boundary step (an op no kernel runs, e.g. "coda.attention") as its
    callback sees it: the operand and result buffers as torch tensors over
    the runtime's memory, in the plan's order, and the launch's stream (a
    CUstream as an int), on which the step's work must be enqueued."""

    op: str
    step: int
    rows: int
    stream: int
    operands: List[Any]
    results: List[Any]


class _DeviceArray:
    """Device memory as __cuda_array_interface__, for torch.as_tensor."""

    def __init__(self, address: int, shape: Tuple[int, ...], typestr: str):
        self.__cuda_array_interface__ = {
            "shape": shape,
            "typestr": typestr,
            "data": (address, False),
            "version": 2,
        }


def _stream_handle(stream: Any, device: Any = None) -> int:
    """A CUstream as an int: `stream` itself, a torch stream's handle, or
    torch's current stream when None (0 without torch)."""
    if stream is None:
        try:
            import torch
        except ImportError:
            return 0
        stream = torch.cuda.current_stream(device)
    return stream if isinstance(stream, int) else stream.cuda_stream


class Bundle:
    """A function of a compiled module: the kernel image (PTX or cubin) and
    its launch plan, `image_path` with `.plan.json` for its suffix when no
    plan is named."""

    def __init__(
        self,
        image_path: str,
        plan_path: Optional[str] = None,
        function: Optional[str] = None,
    ):
        lib = _lib()
        if plan_path is None:
            plan_path = str(Path(image_path).with_suffix(".plan.json"))
        self._bundle = ctypes.c_void_p()
        self._session = ctypes.c_void_p()
        self._callback = None
        self._callback_error: Optional[BaseException] = None
        self._device: Any = None
        # The rows and, per buffer in order, (name, tensor reference,
        # address, shape, strides, dtype) of the last run's bindings.
        self._bound: Optional[Tuple[int, List[Tuple[Any, ...]]]] = None
        _check(
            lib.codaBundleLoad(
                os.fsencode(image_path),
                os.fsencode(plan_path),
                ctypes.byref(self._bundle),
            )
        )
        _check(
            lib.codaSessionCreate(
                self._bundle,
                function.encode() if function is not None else None,
                ctypes.byref(self._session),
            )
        )
        self.target: str = lib.codaBundleTarget(self._bundle).decode()
        self.kernel_count: int = lib.codaSessionKernelCount(self._session)
        self.buffers: Dict[str, Buffer] = {}
        for i in range(lib.codaSessionBufferCount(self._session)):
            view_of = lib.codaSessionBufferViewOf(self._session, i)
            buffer = Buffer(
                name=lib.codaSessionBufferName(self._session, i).decode(),
                dtype=lib.codaSessionBufferType(self._session, i).decode(),
                shape=tuple(
                    lib.codaSessionBufferDim(self._session, i, d)
                    for d in range(lib.codaSessionBufferRank(self._session, i))
                ),
                role=_ROLES[lib.codaSessionBufferRole(self._session, i)],
                view_of=view_of.decode() if view_of else None,
            )
            self.buffers[buffer.name] = buffer

    def close(self) -> None:
        """Frees the workspace, the tensor maps and the module; the runs
        must have completed."""
        if getattr(self, "_session", None):
            _lib().codaSessionDestroy(self._session)
            self._session = None
        if getattr(self, "_bundle", None):
            _lib().codaBundleDestroy(self._bundle)
            self._bundle = None

    def __enter__(self) -> "Bundle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def workspace_bytes(self, rows: int) -> int:
        """The workspace the plan's intermediates take for `rows` rows."""
        size = ctypes.c_size_t()
        _check(
            _lib().codaSessionWorkspaceBytes(self._session, rows, ctypes.byref(size))
        )
        return size.value

    def on_boundary(self, callback: Optional[Callable[[Boundary], None]]) -> None:
        """Runs `callback` for each boundary step of a run; None removes it.
        An exception it raises stops the run and is raised by run()."""
        if callback is None:
            self._callback = None
            _lib().codaSessionSetBoundaryCallback(self._session, _CALLBACK(), None)
            return

        def trampoline(_user: Any, pointer: Any) -> int:
            try:
                callback(self._boundary(pointer.contents))
                return 0
            except BaseException as error:  # re-raised by run()
                self._callback_error = error
                return 1

        self._callback = _CALLBACK(trampoline)
        _lib().codaSessionSetBoundaryCallback(self._session, self._callback, None)

    def _boundary(self, step: _CodaBoundary) -> Boundary:
        import torch

        def tensors(count: int, names: Any, addresses: Any) -> List[Any]:
            out = []
            for i in range(count):
                buffer = self.buffers[names[i].decode()]
                array = _DeviceArray(
                    addresses[i],
                    buffer.shape_for(step.rows),
                    _ARRAY_TYPES[buffer.dtype],
                )
                tensor = torch.as_tensor(array, device=self._device)
                out.append(tensor.view(getattr(torch, _TORCH_DTYPES[buffer.dtype])))
            return out

        return Boundary(
            op=step.op.decode(),
            step=step.step,
            rows=step.rows,
            stream=step.stream or 0,
            operands=tensors(step.num_operands, step.operand_names, step.operands),
            results=tensors(step.num_results, step.result_names, step.results),
        )

    def reserve(self, rows: int, stream: Any = None) -> None:
        """Loads the module, allocates the kernels' scratch (once) and the
        workspace for up to `rows` rows ahead of the runs (e.g. before a
        CUDA graph capture)."""
        _check(
            _lib().codaSessionReserve(
                self._session, rows, ctypes.c_void_p(_stream_handle(stream))
            )
        )

    def run(self, buffers: Dict[str, Any], rows: int, stream: Any = None) -> None:
        """Runs the function over `rows` rows on `stream` (a torch stream
        or a CUstream int; None: torch's current stream), reading and
        writing `buffers` in place: contiguous CUDA tensors by plan name,
        of the plan's dtype and shape (-1 as `rows`, -B as ceil(rows / B)).
        The argument and result buffers are needed; a workspace buffer given
        is used (and can be read afterwards) instead of the runtime's.
        Returns once the work is enqueued. A run over the same rows and the
        same tensors as the one before (the same objects, by name in the same
        order, at the same addresses, shapes, strides and dtypes) reuses its
        bindings: nothing is checked or bound again."""
        import torch

        lib = _lib()
        if not self._bound_to(buffers, rows):
            lib.codaSessionUnbindAll(self._session)
            self._bound = None
            self._device = None
            bound = []
            for name, tensor in buffers.items():
                buffer = self.buffers.get(name)
                if buffer is not None:
                    self._check_tensor(buffer, tensor, rows, torch)
                    self._device = tensor.device
                address = tensor.data_ptr()
                _check(lib.codaSessionBind(self._session, name.encode(), address))
                bound.append(
                    (
                        name,
                        weakref.ref(tensor),
                        address,
                        tensor.shape,
                        tensor.stride(),
                        tensor.dtype,
                    )
                )
            self._bound = (rows, bound)
        self._callback_error = None
        handle = _stream_handle(stream, self._device)
        status = lib.codaSessionLaunch(self._session, rows, ctypes.c_void_p(handle))
        if self._callback_error is not None:
            error, self._callback_error = self._callback_error, None
            raise error
        _check(status)

    def _bound_to(self, buffers: Dict[str, Any], rows: int) -> bool:
        """Whether the session holds `buffers`' bindings for `rows` from the
        run before."""
        if self._bound is None:
            return False
        bound_rows, bound = self._bound
        if bound_rows != rows or len(bound) != len(buffers):
            return False
        for (name, reference, address, shape, strides, dtype), (
            given,
            tensor,
        ) in zip(bound, buffers.items()):
            if (
                given != name
                or reference() is not tensor
                or tensor.data_ptr() != address
                or tensor.shape != shape
                or tensor.stride() != strides
                or tensor.dtype != dtype
            ):
                return False
        return True

    @staticmethod
    def _check_tensor(buffer: Buffer, tensor: Any, rows: int, torch: Any) -> None:
        expected = buffer.shape_for(rows)
        dtype = getattr(torch, _TORCH_DTYPES[buffer.dtype])
        problems = []
        if not isinstance(tensor, torch.Tensor) or not tensor.is_cuda:
            raise ValueError(f"buffer '{buffer.name}': expected a CUDA tensor")
        if tensor.dtype != dtype:
            problems.append(f"dtype {tensor.dtype}, expected {dtype}")
        if tuple(tensor.shape) != expected:
            problems.append(f"shape {tuple(tensor.shape)}, expected {expected}")
        if not tensor.is_contiguous():
            problems.append("not contiguous (the runtime copies nothing)")
        if problems:
            raise ValueError(f"buffer '{buffer.name}': " + "; ".join(problems))
