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
nvcc_database "$WORK/p" a.cu
cd "$WORK/p" || exit 1

expect_exit 2 "--fix with --fix-dry-run" -- "$STREAMLINT" -p . --fix --fix-dry-run
expect_stderr "exclude each other"

expect_exit 0 "--fix-dry-run" -- "$STREAMLINT" -p . --fix-dry-run --use-color=false
expect_stderr "would apply 0 fix(es) in 0 file(s)"
cmp -s a.cu "$WORK/a.orig" || fail "--fix-dry-run changed a.cu"

expect_exit 0 "--fix" -- "$STREAMLINT" -p . --fix --use-color=false
expect_stderr "applied 0 fix(es)"
cmp -s a.cu "$WORK/a.orig" || fail "--fix changed a.cu without applicable fixes"

# With a fix to print, --fix-dry-run keeps stdout for the diff alone (what
# `patch`/`git apply` read) and writes the report to stderr, as clang-tidy
# keeps its diagnostics apart from what a tool consumes.
mkdir -p "$WORK/d"
cat >"$WORK/d/b.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void kernel(float *d) {}
int main() { // main: no caller relies on the legacy stream's order (docs/fixes.md)
  cudaStream_t s; cudaStreamCreate(&s); float *d = nullptr; kernel<<<2, 32, 0, s>>>(d); // blocking s: safe
  kernel<<<1, 32>>>(d);
}
CU
nvcc_database "$WORK/d" b.cu
cp -r "$WORK/d" "$WORK/d-copy"
(cd "$WORK/d" && expect_exit 1 "--fix-dry-run with a fix" -- "$STREAMLINT" -p . --fix-dry-run --use-color=false)
head -1 "$WORK/out" | grep -q '^--- a/b.cu' || fail "stdout does not start with the diff: $(head -3 "$WORK/out")"
grep -q 'b.cu:5:' "$WORK/out" && fail "the report is on stdout with the diff"
grep -q 'warning:' "$WORK/out" && fail "a warning is on stdout with the diff"
expect_stderr "b.cu:5:3: warning:"
expect_stderr "would apply 1 fix(es) in 1 file(s)"
(cd "$WORK/d-copy" && patch -s -p1 <"$WORK/out") || fail "patch rejected the dry-run diff"
grep -q 'kernel<<<1, 32, 0, s>>>(d);' "$WORK/d-copy/b.cu" || fail "the patched file lacks the fix"
# --format json --fix-dry-run: the JSON report on stderr, still parseable.
(cd "$WORK/d" && expect_exit 1 "--fix-dry-run --format json" -- "$STREAMLINT" -p . --fix-dry-run --format json --quiet)
head -1 "$WORK/out" | grep -q '^--- a/b.cu' || fail "JSON run: stdout is not the diff"
grep -v '^streamlint: ' "$WORK/err" | python3 -c 'import json,sys; json.load(sys.stdin)' ||
  fail "the JSON report on stderr does not parse"

mkdir -p "$WORK/yaml"
expect_exit 0 "--export-fixes" -- "$STREAMLINT" -p . --export-fixes "$WORK/yaml/fixes.yaml"
grep -q '^MainSourceFile:' "$WORK/yaml/fixes.yaml" || fail "no MainSourceFile in YAML"
if command -v clang-apply-replacements-22 >/dev/null; then
  clang-apply-replacements-22 "$WORK/yaml" || fail "clang-apply-replacements rejected the YAML"
fi
expect_exit 2 "--export-fixes unwritable" -- "$STREAMLINT" -p . --export-fixes "$WORK/none/x.yaml"
expect_stderr "$WORK/none/x.yaml"
finish
