#!/usr/bin/env bash
# Installs, builds and runs every test (check-coda), then prints one closing
# line: "check-coda: N passed, N failed, N skipped".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CODA_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

log="$build/check-coda.log"
status=0
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log" || status=$?

count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + 0 ))
skipped=$(( $(count Unsupported || true) + 0 ))
echo "check-coda: $passed passed, $failed failed, $skipped skipped"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
