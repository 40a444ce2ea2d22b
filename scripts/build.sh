#!/usr/bin/env bash
# Configures (once) and builds CODA in build/ with Ninja, clang-22 and ccache.
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CODA_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" \
    -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    -DCODA_WARNINGS_AS_ERRORS="${CODA_WARNINGS_AS_ERRORS:-OFF}" \
    "${launcher[@]}"
fi
cmake --build "$build" --target "${@:-all}"
