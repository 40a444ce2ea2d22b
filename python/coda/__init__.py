"""CODA from Python: run what coda-translate compiled.

    bundle = coda.Bundle("block.ptx")           # reads block.plan.json beside it
    bundle.run({"arg0": x0, ..., "t5": x2, "t9": qkv}, rows=x0.shape[0])

See docs/Runtime.md.
"""

from .runtime import Boundary, Buffer, Bundle, RuntimeError

__all__ = ["Boundary", "Buffer", "Bundle", "RuntimeError"]
