#!/usr/bin/env bash
# Analyzer speed against clang's own parse of the same translation units, all
# measured in this one invocation (never compare numbers across machines).
#
#   bench/analysis/run_bench.sh [BUILD_DIR_WITH_compile_commands.json] [REPEATS]
#
# Without a database it configures the bundled example project. Prints, for
# the same TUs and flags: clang++-22 -fsyntax-only (the translated commands
# from `streamlint --show-commands`), streamlint with no checks (parse only),
# streamlint with all checks, each at -j 1; the ratio analysis/parse; and the
# -j 1 vs -j 2 speedup (every streamlint run with --no-cache: the project
# index would answer from its entries); with BASELINE_STREAMLINT=<binary>, that build's
# time on the same TUs and the ratio this/baseline. Wall time is the median of REPEATS runs; peak memory
# is the largest resident set size seen.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STREAMLINT=${STREAMLINT:-$ROOT/build/bin/streamlint}
DB=${1:-}
REPEATS=${2:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [ -z "$DB" ]; then
  export PATH=$PATH:${CUDA_PATH:-/usr/local/cuda}/bin
  cmake -S "$ROOT/testdata/example" -B "$WORK/example" >/dev/null
  DB=$WORK/example
fi
TUS=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]+'/compile_commands.json'))))" "$DB")

# measure NAME COMMAND... -> appends "name median_s peak_kib" to $WORK/results
measure() {
  local name=$1; shift
  local times=() peak=0
  for _ in $(seq "$REPEATS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null 2>&1 || true
    read -r seconds kib < <(tail -n 1 "$WORK/time")
    times+=("$seconds"); [ "$kib" -gt "$peak" ] && peak=$kib
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$name $median $peak" >>"$WORK/results"
}

# The translated commands: --show-commands prints them runnable (clang 22
# by absolute path, host shims written to files under $XDG_CACHE_HOME).
XDG_CACHE_HOME=$WORK/cache "$STREAMLINT" -p "$DB" --show-commands >"$WORK/show.txt"
grep '^cd ' "$WORK/show.txt" | sed 's/$/ || echo FAILED >\&2/' >"$WORK/commands.sh"
bash "$WORK/commands.sh" 2>"$WORK/clang.err" >/dev/null
if grep -q FAILED "$WORK/clang.err"; then
  echo "warning: clang++-22 failed on some translated commands:" >&2; head -5 "$WORK/clang.err" >&2
fi
measure "clang++-22 -fsyntax-only" bash "$WORK/commands.sh"
measure "streamlint --checks=-* -j1" "$STREAMLINT" -p "$DB" --no-cache --checks='-*' --allow-no-checks -j 1 --quiet
measure "streamlint all checks -j1" "$STREAMLINT" -p "$DB" --no-cache -j 1 --quiet
measure "streamlint all checks -j2" "$STREAMLINT" -p "$DB" --no-cache -j 2 --quiet
# BASELINE_STREAMLINT: another build (e.g. main before a change) measured in
# the same invocation, so the ratio compares like with like.
if [ -n "${BASELINE_STREAMLINT:-}" ]; then
  measure "baseline all checks -j1" "$BASELINE_STREAMLINT" -p "$DB" --no-cache -j 1 --quiet
  measure "baseline all checks -j2" "$BASELINE_STREAMLINT" -p "$DB" --no-cache -j 2 --quiet
fi

echo "streamlint analysis benchmark: $TUS translation units from $DB, median of $REPEATS runs"
python3 - "$WORK/results" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    *name, seconds, kib = line.split()
    rows[" ".join(name)] = (float(seconds), int(kib))
    print(f"  {' '.join(name):<28} {float(seconds):8.2f} s  {int(kib) / 1024:8.1f} MiB peak")
clang = rows["clang++-22 -fsyntax-only"][0]
parse = rows["streamlint --checks=-* -j1"][0]
full = rows["streamlint all checks -j1"][0]
full2 = rows["streamlint all checks -j2"][0]
print(f"  analysis / streamlint parse-only : {full / parse:.2f}x  (target <= 1.25x)")
print(f"  analysis / clang++-22 -fsyntax-only: {full / clang:.2f}x")
print(f"  -j1 / -j2 speedup                : {full / full2:.2f}x")
if "baseline all checks -j1" in rows:
    print(f"  this build / baseline, -j1        : {full / rows['baseline all checks -j1'][0]:.3f}x")
    print(f"  this build / baseline, -j2        : {full2 / rows['baseline all checks -j2'][0]:.3f}x")
PY
