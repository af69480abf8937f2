#!/usr/bin/env bash
# --fix, --fix-dry-run, --export-fixes as a user runs them. No check emits an
# applicable fix yet, so this proves the wiring (options, YAML accepted by
# clang-apply-replacements, no file touched); the fix engine's behaviour with
# real edits is covered by tests/fix.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

mkdir -p "$WORK/p"
cat >"$WORK/p/a.cu" <<'CU'
#include <cuda_runtime.h>
void sync() { cudaDeviceSynchronize(); }  // a note: device-sync outside loops
CU
cp "$WORK/p/a.cu" "$WORK/a.orig"
cat >"$WORK/p/compile_commands.json" <<JSON
[{"directory": "$WORK/p", "file": "a.cu", "command": "nvcc -x cu -c a.cu -o a.o"}]
JSON
cd "$WORK/p" || exit 1

expect_exit 2 "--fix with --fix-dry-run" -- "$STREAMLINT" -p . --fix --fix-dry-run
expect_stderr "exclude each other"

expect_exit 0 "--fix-dry-run" -- "$STREAMLINT" -p . --fix-dry-run --use-color=false
expect_stderr "would apply 0 fix(es) in 0 file(s)"
cmp -s a.cu "$WORK/a.orig" || fail "--fix-dry-run changed a.cu"

expect_exit 0 "--fix" -- "$STREAMLINT" -p . --fix --use-color=false
expect_stderr "applied 0 fix(es)"
cmp -s a.cu "$WORK/a.orig" || fail "--fix changed a.cu without applicable fixes"

mkdir -p "$WORK/yaml"
expect_exit 0 "--export-fixes" -- "$STREAMLINT" -p . --export-fixes "$WORK/yaml/fixes.yaml"
grep -q '^MainSourceFile:' "$WORK/yaml/fixes.yaml" || fail "no MainSourceFile in YAML"
if command -v clang-apply-replacements-22 >/dev/null; then
  clang-apply-replacements-22 "$WORK/yaml" || fail "clang-apply-replacements rejected the YAML"
fi
expect_exit 2 "--export-fixes unwritable" -- "$STREAMLINT" -p . --export-fixes "$WORK/none/x.yaml"
expect_stderr "$WORK/none/x.yaml"
finish
