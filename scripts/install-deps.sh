#!/usr/bin/env bash
# Installs what building and testing CODA needs, from Debian's packages.
# Idempotent: packages already present are left alone and apt is not touched.
set -euo pipefail

packages=(
  cmake ninja-build ccache python3 python3-pytest
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 libclang-rt-22-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
  "${missing[@]}"
