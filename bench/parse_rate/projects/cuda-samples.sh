#!/usr/bin/env bash
# compile_commands.json for NVIDIA/cuda-samples written by hand (its CMake
# needs every sample's dependencies): each .cu under Samples/ with the
# sample's own directory and Common/ on the include path, as its
# CMakeLists.txt gives them, C++17, nvcc's default architecture.
# With --with-cpp, each .cpp under Samples/ too, compiled by the host
# compiler with the toolkit's headers, as the suite's CMake build compiles
# them (the samples' mains, timers and thread helpers live there; docs/
# real-code.md, "Suite databases with their .cpp files").
# Usage: cuda-samples.sh [--with-cpp] <checkout> <out-dir>
set -eu
cpp=0
[ "${1:-}" = --with-cpp ] && { cpp=1; shift; }
src=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cxx=${CXX:-/usr/bin/c++}
pattern='*.cu'; [ "$cpp" = 1 ] && pattern='*.c[pu]*'
find "$src/Samples" -name "$pattern" | grep -E '\.(cu|cpp)$' | sort | while IFS= read -r f; do
  d=$(dirname "$f")
  case $f in
    *.cu) c="$nvcc -I$src/Common -I$d -std=c++17 -O2 --extended-lambda -c $f -o /dev/null" ;;
    *) c="$cxx -I$src/Common -I$d -I/usr/local/cuda/include -std=c++17 -O2 -c $f -o /dev/null" ;;
  esac
  jq -n --arg d "$d" --arg f "$f" --arg c "$c" '{directory:$d, file:$f, command:$c}'
done | jq -s . > "$out/compile_commands.json"
