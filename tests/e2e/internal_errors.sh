#!/usr/bin/env bash
# streamlint's own failures are never "clang crashed" (issue 23): an
# exception or an abort in streamlint's code while it analyzes a TU is an
# internal error naming the TU, the step and the cause, exit 3, every other
# TU reported; a crash inside clang's parse is still "clang crashed"; a TU
# that failed is not stored in the index.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
case "${STREAMLINT_SANITIZE:-}" in *address*) export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 ;; esac
P=$WORK/project
mkdir -p "$P"
printf '#include <cuda_runtime.h>\nvoid a() { cudaDeviceSynchronize(); }\n' >"$P/a.cu"
printf '#include <cuda_runtime.h>\nvoid b() { cudaDeviceSynchronize(); }\n' >"$P/b.cu"
printf '#include <cuda_runtime.h>\nvoid c() { cudaDeviceSynchronize(); }\n#pragma clang __debug crash\n' >"$P/c.cu"
stub_database "$P"
cd "$P" || exit 1
# These runs fail on purpose: the binary itself, not the oracle's wrapper.
run() { "$STREAMLINT_BINARY" "$@" >"$WORK/out" 2>"$WORK/err"; echo $?; }

for fault in exception abort; do
  status=$(STREAMLINT_TEST_FAULT=$fault:b.cu run -p . --format json)
  [ "$status" = 3 ] || fail "$fault: exit $status, expected 3"
  expect_stderr "$P/b.cu: not analyzed because of an internal error in streamlint:"
  expect_stderr "error: internal error in streamlint while running the checks:"
  expect_stderr "this is a bug in streamlint, please report it"
  grep -q "$P/b.cu.*clang crashed" "$WORK/err" && fail "$fault: b.cu reported as a clang crash"
  expect_stderr "$P/c.cu: not analyzed because clang crashed:"
  grep -q '"file": "[^"]*a.cu"' "$WORK/out" || fail "$fault: a.cu's finding was lost"
done
expect_stderr "Aborted (signal 6)"
status=$(STREAMLINT_TEST_FAULT=exception:b.cu run -p . --format sarif)
grep -q "internal error in streamlint while running the checks: uncaught exception: a test fault" \
  "$WORK/out" || fail "SARIF does not carry the internal error"
# Not stored: without the fault, b.cu is analyzed, not read from the index.
status=$(run -p . --format json)
[ "$status" = 3 ] || fail "without the fault: exit $status, expected 3 (c.cu still crashes)"
grep -q '"file": "[^"]*b.cu"' "$WORK/out" || fail "b.cu's finding is missing after the fault"
expect_stderr "1 TU result(s) from the index"
finish
