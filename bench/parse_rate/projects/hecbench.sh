#!/usr/bin/env bash
# compile_commands.json for zjin-lcf/HeCBench's CUDA benchmarks, with the
# flags their Makefiles use (`nvcc -std=c++17 -Xcompiler -Wall -arch=$(ARCH)
# -O3`, plus -Xcompiler -fopenmp where the Makefile has it), with ARCH=sm_75:
# their default sm_60 is below CUDA 13's minimum: every .cu file of each
# src/*-cuda directory.
# Usage: hecbench.sh <checkout> <out-dir>
set -eu
src=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
for d in "$src"/src/*-cuda; do
  extra=""
  grep -qs -- '-fopenmp' "$d/Makefile" && extra="-Xcompiler -fopenmp"
  for f in "$d"/*.cu; do
    [ -f "$f" ] || continue
    jq -n --arg d "$d" --arg f "$f" \
      --arg c "$nvcc -std=c++17 -Xcompiler -Wall $extra -I$src/src/include -arch=sm_75 -O3 -c $f -o /dev/null" \
      '{directory:$d, file:$f, command:$c}'
  done
done | jq -s . > "$out/compile_commands.json"
