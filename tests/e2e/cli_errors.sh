#!/usr/bin/env bash
# Bad input: a clear error naming the file, and the documented exit code.
. "$(dirname "$0")/lib.sh"

expect_exit 2 "missing database" -- "$STREAMLINT" -p "$WORK/nowhere"
expect_stderr "$WORK/nowhere"

mkdir -p "$WORK/broken"
printf '[\n  {"directory": "/tmp", "file": "a.cu",\n   "command": "nvcc -c a.cu" \n  \n' >"$WORK/broken/compile_commands.json"
expect_exit 2 "malformed JSON" -- "$STREAMLINT" -p "$WORK/broken"
expect_stderr "$WORK/broken/compile_commands.json"

mkdir -p "$WORK/db"
cat >"$WORK/db/good.cu" <<'CU'
#include <cuda_runtime.h>
void sync() { cudaDeviceSynchronize(); }
CU
cat >"$WORK/db/bad.cu" <<'CU'
#include <cuda_runtime.h>
void sync2() { cudaDeviceSynchronize(); not_declared(); }
CU
nvcc_database "$WORK/db" good.cu bad.cu
expect_exit 2 "file not in database" -- "$STREAMLINT" -p "$WORK/db" "$WORK/db/other.cu"
expect_stderr "other.cu: no entry"

# A TU with errors is reported, still checked, and does not stop the others.
expect_exit 3 "TU with compile errors" -- "$STREAMLINT" -p "$WORK/db" --use-color=false
expect_stderr "bad.cu"
expect_stderr "not_declared"
expect_stdout "good.cu:2:"
expect_stdout "bad.cu:2:"

# An unreadable --options-file (CMake's include paths live there) is named
# as the likely cause of the compile errors it leads to.
mkdir -p "$WORK/rsp/inc"
printf '#include "needed.h"\nvoid f() {}\n' >"$WORK/rsp/uses.cu"
echo 'inline int needed() { return 1; }' >"$WORK/rsp/inc/needed.h"
cat >"$WORK/rsp/compile_commands.json" <<JSON
[{"directory": "$WORK/rsp", "file": "uses.cu", "command": "nvcc --options-file missing_includes.rsp -x cu -c uses.cu -o uses.o"}]
JSON
expect_exit 3 "unreadable options file" -- "$STREAMLINT" -p "$WORK/rsp"
expect_stderr "missing_includes.rsp"
expect_stderr "needed.h"

expect_exit 2 "unknown format" -- "$STREAMLINT" -p "$WORK/db" --format yaml
expect_stderr "--format 'yaml'"
expect_exit 2 "bad check option" -- "$STREAMLINT" -p "$WORK/db" --check-option nodot
expect_exit 0 "--list-checks" -- "$STREAMLINT" --list-checks
expect_stdout "device-sync"
finish
