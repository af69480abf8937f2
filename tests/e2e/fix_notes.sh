#!/usr/bin/env bash
# --fix-notes as a user runs it: by default a suggested fix is never applied;
# with --fix-notes it is, and the summary, the dry-run diff's header and the
# exported YAML say so. The diff with its header still goes through
# `git apply` and `patch -p1`.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

mkdir -p "$WORK/p"
# The launch is only waited for by the free: hoisting the free out of the loop
# would drop that wait, so the hoist is a suggestion.
cat >"$WORK/p/a.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void step(float *d) { d[0] += 1.0f; }
int main() {
  float *d = nullptr;
  for (int i = 0; i < 4; ++i) {
    cudaMalloc(&d, 256);
    step<<<1, 1>>>(d);
    cudaFree(d);
  }
  return 0;
}
CU
nvcc_database "$WORK/p" a.cu
cp "$WORK/p/a.cu" "$WORK/a.orig"
cd "$WORK/p" || exit 1

expect_exit 2 "--fix-notes alone" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --fix-notes
expect_stderr "use it with --fix, --fix-dry-run or --export-fixes"

# Default: the suggestion is shown, not applied.
expect_exit 1 "--fix-dry-run" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --fix-dry-run --use-color=false
expect_stderr "not applied by --fix: cudaFree waits for all device work"
expect_stderr "would apply 0 fix(es) in 0 file(s)"
[ -s "$WORK/out" ] && fail "the default dry run printed a diff: $(head -3 "$WORK/out")"

# --fix-notes: the suggestion is in the diff, marked in its header and the summary.
expect_exit 1 "--fix-dry-run --fix-notes" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --fix-dry-run --fix-notes --use-color=false
head -1 "$WORK/out" | grep -q '^# streamlint --fix-notes: this diff also applies 1 suggested fix' ||
  fail "no --fix-notes header: $(head -3 "$WORK/out")"
grep -q '^#   a.cu:6:5: \[alloc-in-loop\] allocate .d. once before the loop' "$WORK/out" ||
  fail "the header does not name the suggestion: $(head -3 "$WORK/out")"
grep -q '^--- a/a.cu' "$WORK/out" || fail "no diff after the header"
expect_stderr "would apply 1 fix(es) (1 of them suggestion(s), applied because of --fix-notes) in 1 file(s)"
cmp -s a.cu "$WORK/a.orig" || fail "--fix-dry-run changed a.cu"
cp "$WORK/out" "$WORK/notes.diff"
mkdir -p "$WORK/g" && cp "$WORK/a.orig" "$WORK/g/a.cu"
(cd "$WORK/g" && git init -q . && git apply "$WORK/notes.diff") || fail "git apply rejected the diff"
mkdir -p "$WORK/q" && cp "$WORK/a.orig" "$WORK/q/a.cu"
(cd "$WORK/q" && patch -s -p1 <"$WORK/notes.diff") || fail "patch rejected the diff"
cmp -s "$WORK/g/a.cu" "$WORK/q/a.cu" || fail "git apply and patch disagree"
grep -q '^  cudaMalloc(&d, 256);$' "$WORK/q/a.cu" || fail "the allocation was not hoisted: $(cat "$WORK/q/a.cu")"

# --export-fixes --fix-notes carries the same fix.
expect_exit 1 "--export-fixes --fix-notes" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --export-fixes "$WORK/f.yaml" --fix-notes
grep -q 'DiagnosticName:  .alloc-in-loop' "$WORK/f.yaml" || fail "the YAML lacks the suggestion"
expect_exit 1 "--export-fixes" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --export-fixes "$WORK/g.yaml"
grep -q 'Diagnostics: \[\]' "$WORK/g.yaml" || fail "the default YAML has fixes: $(cat "$WORK/g.yaml")"

# --fix --fix-notes writes it.
expect_exit 1 "--fix --fix-notes" -- "$STREAMLINT" -p . --checks=-*,alloc-in-loop --fix --fix-notes --use-color=false
expect_stderr "applied 1 fix(es) (1 of them suggestion(s), applied because of --fix-notes) in 1 file(s)"
cmp -s a.cu "$WORK/q/a.cu" || fail "--fix wrote other bytes than the dry run showed"
finish
