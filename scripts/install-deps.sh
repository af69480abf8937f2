#!/usr/bin/env bash
# Installs what streamlint needs to build and test, from Debian's packages,
# skipping what is already there. Run as root (or with sudo available).
set -euo pipefail

APT_PACKAGES=(
  clang-22 libclang-22-dev llvm-22-dev clang-tools-22   # LibTooling, clang-apply-replacements
  cmake ninja-build g++ python3                         # build and test drivers
  libgtest-dev nlohmann-json3-dev                       # tests, JSON
)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The CUDA toolkit (13.0) is not a Debian package: it must be at /usr/local/cuda
# (or CUDA_PATH). Without it streamlint still builds and analyzes with clang's
# view of CUDA, but the runtime probe and the real-toolkit tests are skipped.
CUDA=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$CUDA/include/cuda_runtime.h" ]; then
  echo "install-deps: warning: no CUDA toolkit at $CUDA; the probe and real-toolkit tests will be skipped" >&2
fi
