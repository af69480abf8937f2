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
# A run of several TUs frees each AST; a run of one keeps it to the exit (as
# clang's -fsyntax-only does) when no index entry is stored after it.
phases() { # TU: its phases, comma-separated, from $WORK/err
  sed -n "s/^streamlint: phase $1: \([a-zA-Z ()-]*\): [0-9.]* s CPU, peak RSS [0-9]* MiB$/\1/p" \
    "$WORK/err" | paste -sd,
}
analysis="parse,traversal scope,call graph,matchers,call-graph checks,ordering facts,files read"
for tu in device-sync.cu alloc-in-loop.cu; do
  got=$(phases $tu)
  [ "$got" = "$analysis,freeing the AST" ] ||
    fail "$tu: phases '$got', expected '$analysis,freeing the AST': $(cat "$WORK/err")"
done
ONE=$WORK/one
mkdir -p "$ONE"
cp "$SRC/testdata/checks/device-sync.cu" "$ONE/"
stub_database "$ONE"
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "one TU" -- "$STREAMLINT" -p "$ONE" --no-cache -j 1 \
  --format json -o "$WORK/one.json"
got=$(phases device-sync.cu)
# The last TU of a process keeps its AST for the exit to drop, except in an
# AddressSanitizer build (UnitAnalysis.cpp: LeakSanitizer must see it freed).
kept="ending the parse (the AST kept)"
case "${STREAMLINT_SANITIZE:-}" in *address*) kept="freeing the AST" ;; esac
[ "$got" = "$analysis,$kept" ] ||
  fail "one TU: phases '$got', expected '$analysis,$kept': $(cat "$WORK/err")"
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "one TU, index stored" -- "$STREAMLINT" -p "$ONE" \
  --cache-dir "$WORK/one-index" -j 1 --quiet
got=$(phases device-sync.cu)
[ "$got" = "$analysis,freeing the AST" ] ||
  fail "one TU, index stored: phases '$got', expected '$analysis,freeing the AST': $(cat "$WORK/err")"
STREAMLINT_PHASE_TIMES=0 expect_exit 1 "STREAMLINT_PHASE_TIMES=0" -- "$STREAMLINT" -p "$P" --no-cache \
  -j 1 --quiet
grep -q 'phase' "$WORK/err" && fail "phase lines with STREAMLINT_PHASE_TIMES=0"

# Storing index entries: every TU frees its AST first.
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "first indexed run" -- "$STREAMLINT" -p "$P" \
  --cache-dir "$WORK/index" -j 1 --quiet
for tu in device-sync.cu alloc-in-loop.cu; do
  got=$(phases $tu)
  [ "$got" = "$analysis,freeing the AST" ] ||
    fail "$tu (index stored): phases '$got', expected '$analysis,freeing the AST': $(cat "$WORK/err")"
done
# From the index: nothing parsed, nothing timed.
STREAMLINT_PHASE_TIMES=1 expect_exit 1 "indexed re-run" -- "$STREAMLINT" -p "$P" \
  --cache-dir "$WORK/index" -j 1 --quiet
grep -q 'phase' "$WORK/err" && fail "phase lines for TUs the index answered: $(cat "$WORK/err")"
finish
