#!/usr/bin/env bash
# compile_commands.json for karpathy/llm.c as its Makefiles build it with nvcc
# (no GPU query: GPU_COMPUTE_CAPABILITY unset; OpenMP found as on Linux;
# default BF16 precision; `-I dev` is only for Windows): the top-level
# trainers and every dev/cuda kernel.
# Usage: llm.c.sh <checkout> <out-dir>
set -eu
src=$(realpath "$1"); out=$(realpath -m "$2"); mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
{
  for f in "$src"/train_gpt2.cu "$src"/test_gpt2.cu "$src"/profile_gpt2.cu; do
    [ -f "$f" ] || continue
    jq -n --arg d "$src" --arg f "$f" --arg c "$nvcc --threads=0 -t=0 --use_fast_math -std=c++17 -O3 -DENABLE_BF16 -c $f -o /dev/null" \
      '{directory:$d, file:$f, command:$c}'
  done
  for f in "$src"/dev/cuda/*.cu; do
    jq -n --arg d "$src/dev/cuda" --arg f "$f" --arg c "$nvcc -O3 --use_fast_math -lcublas -lcublasLt -std=c++17 -c $f -o /dev/null" \
      '{directory:$d, file:$f, command:$c}'
  done
} | jq -s . > "$out/compile_commands.json"
