#!/usr/bin/env bash
# compile_commands.json for ggml-org/ggml with its CUDA backend, from ggml's
# own CMake (-DGGML_CUDA=ON, nvcc, sm_75): the C and C++ TUs of the library
# and the CUDA backend's .cu files (template instances included).
# Usage: ggml.sh <checkout> <out-dir>
set -eu
src=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cmake -S "$src" -B "$out/build" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DGGML_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=75 \
  -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release \
  > "$out/configure.log" 2>&1
# CMake writes nvcc entries with response files and depfiles under build/.
cp "$out/build/compile_commands.json" "$out/compile_commands.json"
