#!/usr/bin/env bash
# Findings in headers outside the project (a framework's include directory
# passed with -I, as torch.utils.cpp_extension passes PyTorch's) are left out
# and counted by default; --third-party-headers, a header filter, --fix-root
# over the framework or naming the header report them. A header beside the
# sources (include/ next to src/, the build directory beside both) is the
# project's. Unless they are reported, a framework header's functions are
# walked only where the project's code calls them (a library template's
# loop around a project lambda included), so only findings there are hidden
# and counted; the index keeps the two kinds of run apart.
. "$(dirname "$0")/lib.sh"

STUB=$SRC/testdata/stub
P=$WORK/proj
FW=$WORK/framework/include
mkdir -p "$P/src" "$P/include" "$P/build" "$FW/fw"
cat >"$FW/fw/guard.h" <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void frameworkSync() { cudaDeviceSynchronize(); }
inline void frameworkStep() { cudaDeviceSynchronize(); }
template <class F> void forEach(int n, F f) { for (int i = 0; i < n; ++i) f(i); }
CU
cat >"$P/include/own.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void ownSync() { cudaDeviceSynchronize(); }
CU
cat >"$P/src/ext.cu" <<'CU'
#include <fw/guard.h>
#include "own.cuh"
void step(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cp "$P/src/ext.cu" "$P/src/ext2.cu"
cat >"$P/src/uses.cu" <<'CU'
#include <fw/guard.h>
void drive(int n) { for (int i = 0; i < n; ++i) frameworkStep(); }
void each(int n) { forEach(n, [](int) { cudaDeviceSynchronize(); }); }
CU
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB -I$FW -I$P/include"
cat >"$P/build/compile_commands.json" <<JSON
[
 {"directory": "$P/build", "file": "$P/src/ext.cu", "command": "clang++ $FLAGS -c $P/src/ext.cu"},
 {"directory": "$P/build", "file": "$P/src/ext2.cu", "command": "clang++ $FLAGS -c $P/src/ext2.cu"},
 {"directory": "$P/build", "file": "$P/src/uses.cu", "command": "clang++ $FLAGS -c $P/src/uses.cu"}
]
JSON
run() { expect_exit "$1" "$2" -- "$STREAMLINT" -p "$P/build" --use-color=false "${@:3}"; }
lacks_stdout() { ! grep -qF -- "$1" "$WORK/out" || fail "stdout has '$1'"; }

run 1 "default"
expect_stdout "src/ext.cu:3:"
expect_stdout "include/own.cuh:3:"
# A project lambda on a hot path through a framework template's loop: the
# template is walked because the project calls it.
expect_stdout "src/uses.cu:3:41: warning: cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream, on a hot path: called from the loop at guard.h:5 through lambda at uses.cu:3"
lacks_stdout "fw/guard.h:3:"
lacks_stdout "fw/guard.h:4:"
# frameworkStep, called by the project, is walked: its finding is hidden
# and counted; frameworkSync, called by nothing of the project's, is not.
expect_stderr "; 1 in third-party headers hidden (--third-party-headers shows them)"

run 1 "json summary" --format json
jq -e '.summary.hidden_third_party == 1' "$WORK/out" >/dev/null ||
  fail "json: summary.hidden_third_party is not 1: $(jq -c .summary "$WORK/out")"
jq -e '[.findings[] | select(.file | endswith("fw/guard.h"))] | length == 0' \
  "$WORK/out" >/dev/null || fail "json: a finding in fw/guard.h"

run 1 "--third-party-headers" --third-party-headers
expect_stdout "fw/guard.h:3:"
expect_stdout "fw/guard.h:4:31: warning"
expect_stdout "src/uses.cu:3:41: warning: cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream, on a hot path: called from the loop at guard.h:5 through lambda at uses.cu:3"
! grep -qF "third-party headers hidden" "$WORK/err" || fail "--third-party-headers still hides"
jq_count() { grep -c "$1" "$WORK/out"; }
[ "$(jq_count 'fw/guard.h:3:')" = 1 ] || fail "--third-party-headers: guard.h reported $(jq_count 'fw/guard.h:3:') times"

run 1 "a header filter of the user's decides" --header-filter='/(fw|include)/'
expect_stdout "fw/guard.h:3:"

run 1 "--fix-root over the framework" --fix-root="$WORK"
expect_stdout "fw/guard.h:3:"

run 1 "the header named" "$FW/fw/guard.h"
expect_stdout "fw/guard.h:3:"
expect_stdout "fw/guard.h:4:"

# The index keeps a run that walks only the project apart from one that
# walks everything: neither answers the other.
run 1 "default, indexed" --cache-dir "$WORK/idx"
lacks_stdout "fw/guard.h:3:"
run 1 "--third-party-headers, same index" --cache-dir "$WORK/idx" --third-party-headers
expect_stdout "fw/guard.h:3:"
expect_stderr "3 parsed"
run 1 "default again, from the index" --cache-dir "$WORK/idx"
lacks_stdout "fw/guard.h:3:"
expect_stderr "3 TU result(s) from the index"
expect_stderr "; 1 in third-party headers hidden"

finish
