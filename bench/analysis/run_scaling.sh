#!/usr/bin/env bash
# How analysis time grows with the size of one translation unit, measured in
# this one invocation: a generated TU of F functions, each launching a kernel
# on the legacy default stream (`k<<<1, 1>>>(d)`: every launch a
# default-stream finding that asks which stream to suggest), at F and 4F.
# Linear work takes about 4x as long at 4F; quadratic work about 16x.
#
#   bench/analysis/run_scaling.sh [F] [REPEATS]        (default 500 3)
#
# Prints, per size: streamlint with all checks and with none (parse only),
# median of REPEATS, --no-cache, -j1; then growth ratios 4F/F. With
# BASELINE_STREAMLINT=<binary>, that build's all-checks times too, and the
# ratio this/baseline at each size.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STREAMLINT=${STREAMLINT:-$ROOT/build/bin/streamlint}
F=${1:-500}
REPEATS=${2:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# generate DIR COUNT: one TU of COUNT launching functions and its database.
generate() {
  local dir=$1 count=$2
  mkdir -p "$dir"
  { echo '#include <cuda_runtime.h>'
    echo '__global__ void k(float *d) {}'
    for i in $(seq "$count"); do echo "void f$i(float *d) { k<<<1, 1>>>(d); }"; done
  } >"$dir/launches.cu"
  printf '[{"directory": "%s", "file": "%s/launches.cu", "command": "clang++ -x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem %s/testdata/stub -c %s/launches.cu"}]\n' \
    "$dir" "$dir" "$ROOT" "$dir" >"$dir/compile_commands.json"
}

# median BINARY DIR [ARGS...] -> median wall seconds of REPEATS runs
median() {
  local binary=$1 dir=$2; shift 2
  for _ in $(seq "$REPEATS"); do
    /usr/bin/time -f "%e" -o "$WORK/time" "$binary" -p "$dir" --no-cache -j 1 --quiet "$@" \
      >/dev/null 2>&1 || true
    tail -n 1 "$WORK/time"
  done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

small=$F large=$((4 * F))
generate "$WORK/small" "$small"
generate "$WORK/large" "$large"
declare -A t
for size in small large; do
  t[all,$size]=$(median "$STREAMLINT" "$WORK/$size")
  t[none,$size]=$(median "$STREAMLINT" "$WORK/$size" --checks='-*' --allow-no-checks)
  if [ -n "${BASELINE_STREAMLINT:-}" ]; then
    t[base,$size]=$(median "$BASELINE_STREAMLINT" "$WORK/$size")
  fi
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf '%-34s %10s %10s %8s\n' "" "F=$small" "F=$large" "4F / F"
printf '%-34s %9ss %9ss %8s\n' "streamlint, all checks" "${t[all,small]}" "${t[all,large]}" \
  "$(ratio "${t[all,large]}" "${t[all,small]}")"
printf '%-34s %9ss %9ss %8s\n' "streamlint, no checks (parse)" "${t[none,small]}" "${t[none,large]}" \
  "$(ratio "${t[none,large]}" "${t[none,small]}")"
if [ -n "${BASELINE_STREAMLINT:-}" ]; then
  printf '%-34s %9ss %9ss %8s\n' "baseline, all checks" "${t[base,small]}" "${t[base,large]}" \
    "$(ratio "${t[base,large]}" "${t[base,small]}")"
  printf '%-34s %10s %10s\n' "this / baseline" "$(ratio "${t[all,small]}" "${t[base,small]}")" \
    "$(ratio "${t[all,large]}" "${t[base,large]}")"
fi
