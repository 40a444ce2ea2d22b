"""Whether two PTX files hold the same kernels, up to per-module names.

The backend numbers some names per module: block labels
(`$L__BB<function>_<n>`) and the mbarriers that coda's kernels create
(`__mbarrier`, `__mbarrier_<n>`). Both are local to their kernel, so two
PTX texts of the same kernels lowered in differently parted modules differ
only there. This renames each within its kernel, in order of first
appearance, drops blank lines, the backend's `// .globl` and "has been
demoted" comments, and compares the rest line for line; prints `same` or
the first differing line of each, and exits 1 on a difference.

usage: python3 bench/ptx_same_kernels.py A.ptx B.ptx
"""

import re
import sys

LOCAL_NAME = re.compile(r"\$L__BB\d+_\d+|__mbarrier(_\d+)?\b")


def normalized(path):
    """The lines of the PTX at `path`, local names numbered per kernel."""
    lines = []
    names = {}
    with open(path) as f:
        for line in f.read().splitlines():
            if (not line.strip() or "// .globl" in line
                    or line.endswith("has been demoted")):
                continue
            if line.startswith(".visible .entry") or line.startswith(".entry"):
                names = {}

            def rename(match):
                name = match.group(0)
                prefix = "L" if name.startswith("$") else "M"
                return names.setdefault(name, f"{prefix}{len(names)}")

            lines.append(LOCAL_NAME.sub(rename, line))
    return lines


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("usage: ")[1])
    a, b = (normalized(path) for path in sys.argv[1:])
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print(f"line {index + 1} (normalized) differs:\n  {x}\n  {y}")
            return 1
    if len(a) != len(b):
        print(f"{len(a)} against {len(b)} lines (normalized)")
        return 1
    print("same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
