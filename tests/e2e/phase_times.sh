#!/usr/bin/env bash
# STREAMLINT_PHASE_TIMES=1 (docs/measurements/heavy-tu-analysis-cost.md)
# prints each parsed TU's phases on stderr, in order, with CPU time and peak
# RSS, and changes nothing else: the report is byte-identical to a run
# without it, which prints no phase line; a TU answered by the project index
# is not parsed and prints none.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
P=$WORK/project
mkdir -p "$P"
cp "$SRC/testdata/checks/device-sync.cu" "$SRC/testdata/checks/alloc-in-loop.cu" "$P/"
stub_database "$P"

expect_exit 1 "plain run" -- "$STREAMLINT" -p "$P" --no-cache -j 1 --format json -o "$WORK/plain.json"
grep -q 'phase' "$WORK/err" && fail "phase lines without STREAMLINT_PHASE_TIMES: $(cat "$WORK/err")"
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "timed run" -- "$STREAMLINT" -p "$P" --no-cache -j 1 \
  --format json -o "$WORK/timed.json"
cmp -s "$WORK/plain.json" "$WORK/timed.json" || fail "the report changed with STREAMLINT_PHASE_TIMES"
for tu in device-sync.cu alloc-in-loop.cu; do
  got=$(sed -n "s/^streamlint: phase $tu: \([a-zA-Z -]*\): [0-9.]* s CPU, peak RSS [0-9]* MiB$/\1/p" \
    "$WORK/err" | paste -sd,)
  want="parse,traversal scope,call graph,matchers,call-graph checks,ordering facts,files read,freeing the AST"
  [ "$got" = "$want" ] || fail "$tu: phases '$got', expected '$want': $(cat "$WORK/err")"
done
STREAMLINT_PHASE_TIMES=0 expect_exit 1 "STREAMLINT_PHASE_TIMES=0" -- "$STREAMLINT" -p "$P" --no-cache \
  -j 1 --quiet
grep -q 'phase' "$WORK/err" && fail "phase lines with STREAMLINT_PHASE_TIMES=0"

# From the index: nothing parsed, nothing timed.
expect_exit 1 "first indexed run" -- "$STREAMLINT" -p "$P" --cache-dir "$WORK/index" -j 1 --quiet
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "indexed re-run" -- "$STREAMLINT" -p "$P" \
  --cache-dir "$WORK/index" -j 1 --quiet
grep -q 'phase' "$WORK/err" && fail "phase lines for TUs the index answered: $(cat "$WORK/err")"
finish
