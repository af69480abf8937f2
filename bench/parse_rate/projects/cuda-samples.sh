#!/usr/bin/env bash
# compile_commands.json for NVIDIA/cuda-samples written by hand (its CMake
# needs every sample's dependencies): each .cu under Samples/ with the
# sample's own directory and Common/ on the include path, as its
# CMakeLists.txt gives them, C++17, nvcc's default architecture.
# Usage: cuda-samples.sh <checkout> <out-dir>
set -eu
src=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
find "$src/Samples" -name '*.cu' | sort | while IFS= read -r f; do
  d=$(dirname "$f")
  jq -n --arg d "$d" --arg f "$f" \
    --arg c "$nvcc -I$src/Common -I$d -std=c++17 -O2 --extended-lambda -c $f -o /dev/null" \
    '{directory:$d, file:$f, command:$c}'
done | jq -s . > "$out/compile_commands.json"
