#!/usr/bin/env bash
# Packages coda-run and the embedding example for a GPU machine that has no
# LLVM/MLIR installed (docs/GPU.md, "A GPU machine without MLIR").
#
# The normal build links libMLIR.so and libLLVM.so, which with their own
# dependencies (z3, ICU, libxml2) are over 300 MB. This script relinks, from
# the objects of an existing build, a coda-run and a libcoda_compiler.so that
# hold the MLIR and LLVM code they use (static archives, unused sections
# dropped), and gathers them with coda-embed, libcoda_runtime.so and the C and
# C++ libraries they were built against, including the dynamic loader, so that
# the package runs on hosts with an older C library too.
#
# Usage: scripts/package-gpu-tools.sh           (build first: scripts/build.sh)
# Writes $CODA_BUILD_DIR/gpu-tools/ (default build/gpu-tools/):
#   bin/coda-run, bin/coda-embed   wrappers that start the programs through the
#                                  packaged loader and libraries
#   libexec/, lib/                 the programs and their libraries
# and build/gpu-tools.tar.xz, the same tree compressed (about 45 MB).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CODA_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22
out="$build/gpu-tools"

fail() { echo "package-gpu-tools: error: $*" >&2; exit 1; }

runObject="$build/tools/coda-run/CMakeFiles/coda-run.dir/coda-run.cpp.o"
apiObjects=("$build"/lib/API/CMakeFiles/coda_compiler.dir/*.cpp.o)
for needed in "$runObject" "${apiObjects[0]}" "$build/bin/coda-embed" \
              "$build/lib/libcoda_runtime.so"; do
  [ -e "$needed" ] || fail "'$needed' is missing; build with scripts/build.sh (the runtime needs cuda.h)"
done
ls "$llvm"/lib/libMLIRIR.a "$llvm"/lib/libLLVMSupport.a >/dev/null 2>&1 ||
  fail "the static MLIR and LLVM archives are not in $llvm/lib (libmlir-22-dev, llvm-22-dev)"

# Every CODA archive and every MLIR/LLVM archive in one group: the linker takes
# only the members something refers to. The C API archives and the mlir-opt
# driver define symbols that clash with the libraries they wrap.
archives=("$build"/lib/libCoda*.a)
for archive in "$llvm"/lib/libMLIR*.a "$llvm"/lib/libLLVM*.a; do
  case "$(basename "$archive")" in
    libMLIRCAPI*|libMLIRMlirOptMain.a) ;;
    *) archives+=("$archive") ;;
  esac
done
systemLibraries=(-lz -l:libzstd.so.1 -l:libtinfo.so.6 -lpthread -ldl -lm)
linker=()
if command -v ld.lld >/dev/null; then linker=(-fuse-ld=lld); fi
link() {
  "$llvm/bin/clang++" "${linker[@]}" -Wl,--gc-sections -s "$@" \
    -Wl,--start-group "${archives[@]}" -Wl,--end-group "${systemLibraries[@]}"
}

rm -rf "$out"
mkdir -p "$out/bin" "$out/libexec" "$out/lib"
echo "package-gpu-tools: linking coda-run"
# The CPU reference path's JIT-compiled code calls only the C library and
# libm (coda-expand-strided-copies), so MLIR's runner utilities stay out.
link -o "$out/libexec/coda-run" "$runObject" -L"$build/lib" -lcoda_runtime
echo "package-gpu-tools: linking libcoda_compiler.so"
link -shared -o "$out/lib/libcoda_compiler.so" \
  -Wl,--version-script="$root/lib/API/coda_compiler.map" "${apiObjects[@]}"
cp "$build/bin/coda-embed" "$out/libexec/"
cp "$build/lib/libcoda_runtime.so" "$out/lib/"

# The C and C++ runtime the programs were linked against, and its loader.
for program in "$out/libexec/coda-run" "$out/libexec/coda-embed"; do
  LD_LIBRARY_PATH="$out/lib" ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
done | sort -u | cat - <(
  # libcuda may ask for the C library's compatibility stubs; they must come
  # from the same C library as the rest.
  for stub in libdl.so.2 libpthread.so.0 librt.so.1; do
    [ -e "/lib/x86_64-linux-gnu/$stub" ] && echo "/lib/x86_64-linux-gnu/$stub"
  done) | sort -u | while read -r library; do
  case "$library" in "$out"/*) continue ;; esac
  cp -L "$library" "$out/lib/"
done
loaders=("$out"/lib/ld-linux-*.so.*)
[ -e "${loaders[0]}" ] || fail "ldd named no dynamic loader"
loader="$(basename "${loaders[0]}")"

for program in coda-run coda-embed; do
  cat >"$out/bin/$program" <<EOF
#!/bin/sh
# Runs $program through the loader and libraries packaged beside it; the CUDA
# driver is still the host's (found as the runtime finds it, or through
# CODA_RUNTIME_LIBCUDA).
here="\$(cd "\$(dirname "\$0")/.." && pwd)"
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/libexec/$program" "\$@"
EOF
  chmod +x "$out/bin/$program"
done

# The packaged tools must run here before they are worth carrying.
"$out/bin/coda-run" --version >/dev/null ||
  fail "the packaged coda-run does not start"
"$out/bin/coda-embed" "$root/examples/llama3-1b-block.mlir" | grep -q "compiled, 0 diagnostics" ||
  fail "the packaged coda-embed does not compile the Llama example"

echo "package-gpu-tools: compressing"
tar -C "$build" -cf - gpu-tools | xz -T0 -6 >"$build/gpu-tools.tar.xz"
du -sh "$out" "$build/gpu-tools.tar.xz" | sed 's/^/package-gpu-tools: /'
