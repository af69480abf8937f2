#!/usr/bin/env bash
# Skipped library bodies (docs/index.md, "Skipped library bodies"): the
# parse skips the bodies of functions declared in system headers, which no
# check reads, unless --parse-library-bodies. A library header here has a
# function body and a template body that do not compile: a default run
# analyzes the TU cleanly (they were skipped), --parse-library-bodies
# reports clang's errors (they were parsed), with and without --preambles,
# and the index never gives one kind of run the other's result. Bodies clang
# must parse are kept (a constexpr function a static_assert evaluates, a
# deduced return type), and the findings of the testdata projects are the
# same either way.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
LIB=$WORK/lib
P=$WORK/project
mkdir -p "$LIB/vendor" "$P"

cat >"$LIB/vendor/algo.h" <<'CU'
#pragma once
inline int vendorHelper() { return vendor_undeclared_name; }
template <class F> void vendorForEach(int n, F f) {
  static_assert(sizeof(F) == 0, "vendorForEach's body was instantiated");
  for (int i = 0; i < n; ++i) f(i);
}
constexpr int vendorWidth() { return 4; }
inline auto vendorScale() { return 2.0f; }
CU
cat >"$P/main.cu" <<'CU'
#include <cuda_runtime.h>
#include <vendor/algo.h>

static_assert(vendorWidth() == 4, "a constexpr body is kept");

__global__ void fill(float *p) { p[0] = 1; }

void run(float *p, int n) {
  float scale = vendorScale();
  vendorForEach(n, [&](int) { p[0] = scale; });
  fill<<<1, 1>>>(p);
}
CU
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB -isystem $LIB"
stub_database "$P"
run() { expect_exit "$1" "$2" -- "$STREAMLINT" -p "$P" --use-color=false "${@:3}"; }
lacks_stderr() { ! grep -qF -- "$1" "$WORK/err" || fail "stderr has '$1'"; }

run 1 "bodies skipped" --no-cache
expect_stdout "main.cu:11:3: warning: "
lacks_stderr "vendor_undeclared_name"
cp "$WORK/out" "$WORK/skipped.txt"

run 3 "--parse-library-bodies parses them" --no-cache --parse-library-bodies
expect_stderr "vendor_undeclared_name"
expect_stderr "vendorForEach's body was instantiated"

INDEX=$WORK/index
# Analyzed, then edited in its body twice: its own prefix's preamble is
# deferred, built, then reused, each kind of run with its own.
for state in deferred built reused; do
  run 1 "$state: with an index and preambles" --cache-dir "$INDEX" --preambles
  expect_stderr "1 $state"
  lacks_stderr "vendor_undeclared_name"
  [ "$state" != deferred ] || cp "$WORK/out" "$WORK/indexed.txt"
  run 3 "$state: with an index, preambles and --parse-library-bodies" \
    --cache-dir "$INDEX" --preambles --parse-library-bodies
  expect_stderr "vendor_undeclared_name"
  echo "// edited" >>"$P/main.cu"
done
cmp -s "$WORK/indexed.txt" "$WORK/skipped.txt" || fail "the indexed run's report differs from --no-cache"

# The testdata's check inputs: the same report either way.
for dir in "$SRC/testdata/checks" "$SRC/testdata/fixes"; do
  rm -rf "$WORK/t"
  cp -r "$dir" "$WORK/t"
  FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB -I$WORK/t"
  stub_database "$WORK/t"
  "$STREAMLINT" -p "$WORK/t" --no-cache --format json -o "$WORK/default.json" 2>"$WORK/err1"
  a=$?
  "$STREAMLINT" -p "$WORK/t" --no-cache --format json -o "$WORK/parsed.json" \
    --parse-library-bodies 2>"$WORK/err2"
  b=$?
  [ "$a" = "$b" ] || fail "$(basename "$dir"): exit $a skipped, $b parsed"
  cmp -s "$WORK/default.json" "$WORK/parsed.json" ||
    fail "$(basename "$dir"): findings differ: $(diff <(jq -c '.findings[]' "$WORK/default.json") <(jq -c '.findings[]' "$WORK/parsed.json") | head -5)"
  n=$(jq '.findings | length' "$WORK/default.json")
  [ "$n" -gt 20 ] || fail "$(basename "$dir"): only $n findings: the comparison is empty"
done
finish
