#!/usr/bin/env bash
# The index never keeps a stale result (issue 23, 5): a header reached
# through -isystem (CMake's SYSTEM and imported targets: vendored
# libraries) is verified like any other, and the include path environment
# (CPATH, CPLUS_INCLUDE_PATH, C_INCLUDE_PATH) is part of the key, so a warm
# run neither keeps an old finding nor hides a fatal missing include.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
P=$WORK/project
mkdir -p "$P/vendor/lib" "$P/from-cpath"
printf '#pragma once\n#include <cuda_runtime.h>\ninline void helper() {}\n' >"$P/vendor/lib/helper.h"
printf '#include <lib/helper.h>\nvoid step() { helper(); }\n' >"$P/main.cu"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB -isystem $P/vendor"
stub_database "$P"
cd "$P" || exit 1

expect_exit 0 "clean vendored header" -- "$STREAMLINT" -p . --format json
expect_exit 0 "warm" -- "$STREAMLINT" -p . --format json
expect_stderr "1 TU result(s) from the index"
# The vendored header now syncs the device (an inline function: its body is
# the TU's, and device-sync reports the call in the header's function).
printf '#pragma once\n#include <cuda_runtime.h>\ninline void helper() { for (;;) cudaDeviceSynchronize(); }\n' \
  >"$P/vendor/lib/helper.h"
"$STREAMLINT" -p . --no-cache --format json -o "$WORK/fresh.json" 2>/dev/null
"$STREAMLINT" -p . --format json -o "$WORK/warm.json" 2>"$WORK/err"
grep -q "from the index" "$WORK/err" && fail "an edited -isystem header kept the old result"
cmp -s "$WORK/fresh.json" "$WORK/warm.json" || fail "report after editing an -isystem header differs from a fresh one"

# CPATH: the header is found only through it.
printf '#include <cuda_runtime.h>\n#include "extra.h"\nvoid other() { extra(); }\n' >"$P/other.cu"
printf '#pragma once\ninline void extra() {}\n' >"$P/from-cpath/extra.h"
stub_database "$P"
CPATH=$P/from-cpath expect_exit 0 "found through CPATH" -- "$STREAMLINT" -p . other.cu
CPATH=$P/from-cpath expect_exit 0 "found through CPATH, warm" -- "$STREAMLINT" -p . other.cu
expect_stderr "TU result(s) from the index"
expect_exit 3 "CPATH unset: the missing include is not hidden" -- "$STREAMLINT" -p . other.cu
expect_stderr "'extra.h' file not found"
CPLUS_INCLUDE_PATH=$P/from-cpath expect_exit 0 "found through CPLUS_INCLUDE_PATH" -- \
  "$STREAMLINT" -p . other.cu
finish
