"""Pins keys of one GEMM's coda.plan in a planned kernel-level file.

  python3 bench/pin_plan.py PLANNED.mlir --function NAME --gemm I KEY=VALUE... [-o OUT.mlir]

PLANNED.mlir is the output of `coda-opt FILE --pass-pipeline=
"builtin.module(func.func(coda-gpu-fuse-pipeline),coda-plan-kernels)"`, in
which every coda.gemm carries its plan. The I-th coda.gemm (from 0, in
the order of the function's text, as the kernels are numbered:
NAME_gemmI) of function NAME gets each KEY set to VALUE (a string for
`schedule`, an i64 otherwise); `coda-translate --coda-to-ptx OUT.mlir`
then compiles that GEMM with the pinned plan and re-derives the rest
(coda-plan-kernels keeps a plan's schedule, stages, splits and group
rows). Used for per-GEMM trials (bench/NOTES.md §81).
"""

import argparse
import re
import sys

PLAN = re.compile(r"coda\.plan = \{([^}]*)\}")
FUNCTION = re.compile(r"^\s*func\.func @([\w.$-]+)")


def pin(text, function, gemm, settings):
    """`text` with the plan of `function`'s gemm-th coda.gemm updated."""
    lines = text.split("\n")
    current, seen = None, -1
    for number, line in enumerate(lines):
        match = FUNCTION.match(line)
        if match:
            current, seen = match.group(1), -1
            continue
        if current != function or "coda.gemm" not in line:
            continue
        seen += 1
        if seen != gemm:
            continue
        plan = PLAN.search(line)
        if not plan:
            sys.exit(f"pin_plan.py: {function}'s coda.gemm #{gemm} has no coda.plan "
                     f"(run coda-plan-kernels first)")
        fields = dict(f.split(" = ", 1) for f in plan.group(1).split(", "))
        for key, value in settings:
            fields[key] = f'"{value}"' if key == "schedule" else f"{value} : i64"
        body = ", ".join(f"{k} = {v}" for k, v in sorted(fields.items()))
        lines[number] = line[:plan.start(1)] + body + line[plan.end(1):]
        return "\n".join(lines)
    sys.exit(f"pin_plan.py: no coda.gemm #{gemm} in function {function} "
             f"({seen + 1 if current == function else 0} found)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("planned")
    parser.add_argument("--function", required=True)
    parser.add_argument("--gemm", type=int, required=True)
    parser.add_argument("settings", nargs="+", metavar="KEY=VALUE")
    parser.add_argument("-o", "--output", default="-")
    options = parser.parse_args()
    settings = []
    for setting in options.settings:
        key, sep, value = setting.partition("=")
        if not sep or not key or not value:
            sys.exit(f"pin_plan.py: '{setting}' is not KEY=VALUE")
        settings.append((key, value))
    with open(options.planned) as f:
        text = pin(f.read(), options.function, options.gemm, settings)
    if options.output == "-":
        sys.stdout.write(text)
    else:
        with open(options.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
