#!/usr/bin/env bash
# --show-commands prints commands a user can paste into a shell: the clang
# streamlint is built on (not the first clang++ on PATH), quoted arguments,
# and the in-memory host shims as files the command names. Pasted, the
# command parses the TU exactly as streamlint does: it succeeds where
# streamlint parses cleanly and fails where streamlint reports an error.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

mkdir -p "$WORK/p/inc dir" "$WORK/cache"
# Host min(): only the shim header gives host code nvcc's overloads. The
# include directory (with a blank) comes from an options file, two macros
# from one -Xcompiler list with a blank in it.
cat >"$WORK/p/good.cu" <<'CU'
#include <cuda_runtime.h>
#include "needed.h"
#if !defined(FROM_A) || !defined(FROM_B) || FROM_A != 1
#error "-Xcompiler \"-DFROM_A=1 -DFROM_B\" did not arrive as two macros"
#endif
int smaller(int a, int b) { return min(a, b) + needed(); }
CU
echo 'inline int needed() { return 0; }' >"$WORK/p/inc dir/needed.h"
printf -- '-I"%s"\n' "$WORK/p/inc dir" >"$WORK/p/includes.rsp"
cat >"$WORK/p/bad.cu" <<'CU'
#include <cuda_runtime.h>
void f() { not_declared(); }
CU
cat >"$WORK/p/compile_commands.json" <<JSON
[{"directory": "$WORK/p", "file": "good.cu", "command": "nvcc --options-file includes.rsp -Xcompiler \"-DFROM_A=1 -DFROM_B\" -x cu -c good.cu -o good.o"},
 {"directory": "$WORK/p", "file": "bad.cu", "command": "nvcc -x cu -c bad.cu -o bad.o"}]
JSON

# streamlint itself parses good.cu cleanly: what the pasted command must match.
expect_exit 0 "streamlint on good.cu" -- "$STREAMLINT" -p "$WORK/p" "$WORK/p/good.cu" --quiet
XDG_CACHE_HOME=$WORK/cache expect_exit 0 "--show-commands" -- "$STREAMLINT" -p "$WORK/p" --show-commands
cp "$WORK/out" "$WORK/show.txt"
grep '^cd ' "$WORK/show.txt" >"$WORK/commands.txt"
[ "$(wc -l <"$WORK/commands.txt")" = 2 ] || fail "expected 2 commands: $(cat "$WORK/show.txt")"
clang_binary=$(sed -n 's/^cd [^&]* && \([^ ]*\) .*/\1/p' "$WORK/commands.txt" | sort -u)
case "$clang_binary" in
  /*/clang++) [ -x "$clang_binary" ] || fail "$clang_binary is not executable" ;;
  *) fail "the command does not start with an absolute clang++: $clang_binary" ;;
esac
"$clang_binary" --version | grep -q "clang version 22" || fail "$clang_binary is not clang 22"
grep -q streamlint-virtual "$WORK/commands.txt" && fail "a command names the in-memory shim directory"
grep -q "^# host shims .* are in $WORK/cache/streamlint/shims/" "$WORK/show.txt" ||
  fail "no shim directory under XDG_CACHE_HOME: $(head -1 "$WORK/show.txt")"

# Paste each command into a fresh shell, elsewhere, with a PATH that has
# another clang++ first.
mkdir -p "$WORK/bin"
printf '#!/bin/sh\necho wrong clang >&2; exit 9\n' >"$WORK/bin/clang++"; chmod +x "$WORK/bin/clang++"
good=$(grep "/good.cu$" "$WORK/commands.txt")
bad=$(grep "/bad.cu$" "$WORK/commands.txt")
[ -n "$good" ] && [ -n "$bad" ] || fail "no command for good.cu or bad.cu: $(cat "$WORK/commands.txt")"
(cd / && PATH=$WORK/bin:$PATH bash -c "$good") >"$WORK/good.log" 2>&1 ||
  fail "pasted command for good.cu failed: $(cat "$WORK/good.log")"
(cd / && PATH=$WORK/bin:$PATH bash -c "$bad") >"$WORK/bad.log" 2>&1 &&
  fail "pasted command for bad.cu succeeded"
grep -q "not_declared" "$WORK/bad.log" || fail "bad.cu's error missing: $(cat "$WORK/bad.log")"

# A second run reuses the same files (named by their contents).
XDG_CACHE_HOME=$WORK/cache expect_exit 0 "--show-commands again" -- "$STREAMLINT" -p "$WORK/p" --show-commands
cmp -s "$WORK/out" "$WORK/show.txt" || fail "--show-commands differs between runs"
finish
