"""The PTX instructions of each kernel, by opcode, for one or two PTX files.

  python3 bench/ptx_ops.py A.ptx [B.ptx] [--kernel NAME...] [--top 12]

Counts the static instructions of every `.entry` (one per line, with its
predicate dropped; directives, labels, braces, the parameter list's
parentheses and comments left out) by opcode, the PTX text's own
spelling (`fma.rn.f32`, `tanh.approx.f32`). With one file it prints each
kernel's total and its `--top` most frequent opcodes; with two, each
kernel's totals side by side and the opcodes whose counts differ most (B
minus A; equal moves by name), so that a change to an epilogue's
arithmetic can be read per kernel before it is timed (bench/NOTES.md
§82). Static counts: an epilogue is straight-line code run once per tile
and thread; a loop's body counts once.
"""

import argparse
import collections
import re
import sys

ENTRY = re.compile(r"^\.(?:visible )?\.?entry (\w+)")


def kernel_ops(path):
    """Per kernel name, a Counter of its opcodes."""
    kernels = {}
    current = None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            match = ENTRY.match(line)
            if match:
                current = kernels.setdefault(match.group(1), collections.Counter())
                continue
            if (current is None or not line or line.startswith(("//", ".", "{", "}", "(", ")"))
                    or line.endswith(":")):
                continue
            if line.startswith("@"):
                line = line.split(None, 1)[1] if " " in line else ""
            opcode = line.split(None, 1)[0].rstrip(";") if line else ""
            if opcode:
                current[opcode] += 1
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", nargs="+", help="one PTX file, or two to compare")
    parser.add_argument("--kernel", nargs="*", default=[],
                        help="only these kernels (default: all)")
    parser.add_argument("--top", type=int, default=12)
    options = parser.parse_args()
    if len(options.ptx) > 2:
        sys.exit("ptx_ops.py: one PTX file, or two to compare")
    files = [kernel_ops(path) for path in options.ptx]
    names = [name for name in files[0] if not options.kernel or name in options.kernel]
    if not names:
        sys.exit("ptx_ops.py: no such kernel in " + options.ptx[0])
    for name in names:
        a = files[0][name]
        if len(files) == 1:
            top = " ".join(f"{op}:{count}" for op, count in a.most_common(options.top))
            print(f"{name}: {sum(a.values())} | {top}")
            continue
        b = files[1].get(name, collections.Counter())
        delta = collections.Counter(b)
        delta.subtract(a)
        changed = sorted((op for op in delta if delta[op]),
                         key=lambda op: (-abs(delta[op]), op))
        moves = " ".join(f"{op}:{delta[op]:+d}" for op in changed[:options.top])
        print(f"{name}: {sum(a.values())} -> {sum(b.values())} | {moves or 'same'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
