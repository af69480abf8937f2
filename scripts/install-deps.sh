#!/usr/bin/env bash
# Installs what streamlint needs to build and test, from Debian's packages,
# skipping what is already there. Run as root (or with sudo available).
set -euo pipefail

APT_PACKAGES=(
  clang-22 libclang-22-dev llvm-22-dev clang-tools-22   # LibTooling, clang-apply-replacements
  cmake ninja-build g++ python3                         # build and test drivers
  libgtest-dev nlohmann-json3-dev                       # tests, JSON
  libunwind-dev                                         # runtime probe: libunwind.h, libunwind.so.8
  pre-commit git python3-yaml                           # pre-commit hook and CI-file tests
  jq                                                    # bench/parse_rate scripts
  libclang-rt-22-dev                                    # libFuzzer, sanitizers (scripts/fuzz.sh)
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

# npm tools, installed into tools/node/ (ignored by git): the SARIF validators
# for tests/output, the two that run offline: the SARIF multitool, and ajv-cli +
# ajv-formats for JSON-schema validation against the 2.1.0 schema shipped by
# @microsoft/sarif-multitool-linux. Without npm those tests are skipped.
NPM_PACKAGES=(
  @microsoft/sarif-multitool@5.7.0
  ajv-cli@5.0.0
  ajv-formats@3.0.1
)
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v npm >/dev/null; then
  mkdir -p "$root/tools/node"
  [ -f "$root/tools/node/package.json" ] || echo '{"private": true}' >"$root/tools/node/package.json"
  npm install --prefix "$root/tools/node" --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}"
  # The multitool's postinstall (chmod) may be skipped by npm's script policy.
  chmod u+x "$root/tools/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" 2>/dev/null || true
else
  echo "install-deps: warning: npm not found; SARIF validation tests will be skipped" >&2
fi
