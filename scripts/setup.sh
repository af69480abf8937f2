#!/usr/bin/env bash
# First set-up command: install what is missing, build streamlint, and run it
# on the bundled example project (testdata/example, a CMake + nvcc project).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target streamlint
export PATH=$PATH:${CUDA_PATH:-/usr/local/cuda}/bin
cmake -S testdata/example -B build/example >/dev/null
echo "== streamlint on testdata/example =="
cd testdata/example
status=0
"$ROOT/build/bin/streamlint" -p "$ROOT/build/example" || status=$?
# 1 means "findings", which is what the example is for.
[ "$status" -eq 0 ] || [ "$status" -eq 1 ] || exit "$status"
