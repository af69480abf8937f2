#!/usr/bin/env bash
# Parse parity over four public CUDA projects of different kinds: for every
# sampled TU, does nvcc's front end accept it, does streamlint parse it with
# zero errors? Prints the TUs nvcc accepts and streamlint does not (goal:
# none) and one summary line per project. Fetches nothing.
# Usage: run-parse-parity.sh <sources> <work-dir> [streamlint]
#   <sources>/llm.c          karpathy/llm.c checkout         (ML training)
#   <sources>/ggml           ggml-org/ggml checkout          (inference engine, CMake)
#   <sources>/cuda-samples   NVIDIA/cuda-samples checkout    (samples)
#   <sources>/HeCBench       zjin-lcf/HeCBench checkout, or a subset of src/*-cuda
#                            (benchmark suite)
# SAMPLE_<project>=N takes every Nth entry (defaults below: what fits a
# 2-core machine in an hour; 1 = all).
set -u
here=$(cd "$(dirname "$0")" && pwd)
sources=$(realpath "$1"); work=$(realpath -m "$2")
streamlint=${3:-$here/../../build/bin/streamlint}
[ -x "$streamlint" ] || { echo "build streamlint first" >&2; exit 2; }
declare -A sample=([llm.c]=${SAMPLE_llmc:-1} [ggml]=${SAMPLE_ggml:-16}
                   [cuda-samples]=${SAMPLE_cuda_samples:-24} [hecbench]=${SAMPLE_hecbench:-6})
declare -A checkout=([llm.c]=llm.c [ggml]=ggml [cuda-samples]=cuda-samples [hecbench]=HeCBench)
for project in llm.c ggml cuda-samples hecbench; do
  src="$sources/${checkout[$project]}"
  [ -d "$src" ] || { echo "skip $project: no $src"; continue; }
  db="$work/db/$project"
  [ -s "$db/compile_commands.json" ] || "$here/projects/$project.sh" "$src" "$db" || exit 2
  git -C "$src" rev-parse HEAD 2>/dev/null | sed "s/^/$project commit: /"
  python3 "$here/parse-parity.py" "$db" "$streamlint" --every "${sample[$project]}" \
    --name "$project" --out "$work/out/$project"
done
