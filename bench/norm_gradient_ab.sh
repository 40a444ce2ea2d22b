#!/usr/bin/env bash
# The MLP norm's gradient in the epilogue of the gate/up dgrad (the default
# training pair) against the row kernel (the same pair with the gradient's
# row statistic operand removed, so coda-split-norm-gradients makes it a
# row kernel), bench/NOTES.md §28.
#
#   bash bench/norm_gradient_ab.sh build        # build machine: PTX into build/pair
#   bash bench/norm_gradient_ab.sh run LOG_DIR  # GPU machine (carry build/pair and
#                                               # build/lib/libcoda_runtime.so)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pair="$root/build/pair"
case "${1:-}" in
build)
  mkdir -p "$pair"
  "$root/build/bin/coda-translate" --coda-to-ptx \
    "$root/examples/llama3-1b-block.mlir" -o "$pair/block.ptx"
  "$root/build/bin/coda-opt" "$root/examples/llama3-1b-block.mlir" \
    --coda-generate-backward -o "$pair/pair.mlir"
  # rms_norm_grad %x, %g, %dy, %row_dot -> rms_norm_grad %x, %g, %dy.
  sed -E 's/(coda\.rms_norm_grad %[a-z0-9_]+, %[a-z0-9_]+, %[a-z0-9_]+), %[a-z0-9_]+ (\{[^}]*\}) : \(([^)]*), tensor<\?x1xf32>\)/\1 \2 : (\3)/' \
    "$pair/pair.mlir" > "$pair/pair-rowkernel.mlir"
  for name in pair pair-rowkernel; do
    "$root/build/bin/coda-translate" --coda-to-ptx "$pair/$name.mlir" \
      -o "$pair/$name.ptx"
  done
  ;;
run)
  logs="${2:?LOG_DIR}"
  export CODA_RUNTIME_LIBRARY="${CODA_RUNTIME_LIBRARY:-$root/build/lib/libcoda_runtime.so}"
  for name in pair pair-rowkernel; do
    mkdir -p "$logs/$name"
    python3 "$root/bench/block.py" "$pair/block.ptx" --training "$pair/$name.ptx" \
      --skip-forward --rows 4097 16384 32768 --out "$logs/$name" \
      > "$logs/$name/block.log" 2>&1
    python3 "$root/bench/kernel_profile.py" "$pair/$name.ptx" --rows 16384 \
      > "$logs/$name/profile.txt" 2>&1
    tail -5 "$logs/$name/block.log"
  done
  ;;
*)
  echo "usage: $0 build | run LOG_DIR" >&2
  exit 2
  ;;
esac
