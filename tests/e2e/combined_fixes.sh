#!/usr/bin/env bash
# device-sync's narrowed wait that relies on default-stream's moves
# (testdata/fixes/programs/per-thread-combined, docs/fixes.md rule 10): one
# fix carries the narrowing and the moves, and --fix applies it only when
# default-stream's own fixes of those moves are applied in the same run. Run
# as a user would: both checks (applied, also through CI shards, which carry
# the fix's prerequisites); device-sync alone; a NOLINT on one moved line; a
# baseline holding default-stream's findings.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

fix_program per-thread-combined main.cu legacy.cu
cd "$WORK/p" || exit 1
BOTH=--checks=-*,default-stream,device-sync
NARROWED='+    cudaStreamSynchronize(cudaStreamPerThread); // applied'
MOVED='+    twice<<<1, 64, 0, cudaStreamPerThread>>>(d); // applied'
# narrowed N: N lines of the dry-run diff wait for the per-thread stream alone
# (the narrowed waits of copyLoop, rounds and clearLoop, and the wait after
# clearLoop's memset made Async).
narrowed() {
  local got; got=$(grep -cxF -- "$NARROWED" "$WORK/out")
  [ "$got" = "$1" ] || fail "$2: $got narrowed waits, expected $1: $(cat "$WORK/out")"
}

expect_exit 1 "both checks" -- "$STREAMLINT" -p . "$BOTH" --no-cache --fix-dry-run
narrowed 4 "both checks"
expect_stdout "$MOVED"
expect_stderr "would apply 9 fix(es) in 1 file(s)"

mkdir -p parts
for i in 1 2; do
  expect_exit 0 "shard $i/2" -- "$STREAMLINT" -p . "$BOTH" --no-cache --shard=$i/2 -o parts/p$i.json
done
expect_exit 1 "merged shards" -- "$STREAMLINT" -p . "$BOTH" --merge-shards parts/p1.json parts/p2.json --fix-dry-run
narrowed 4 "merged shards"
expect_stderr "would apply 9 fix(es) in 1 file(s)"

# device-sync alone: the narrowings that rely on default-stream's moves are
# suggestions (clearLoop's relies on device-sync's own fix of its memset and
# is applied), and --fix-notes applies them whole (the moves with them).
expect_exit 1 "device-sync alone" -- "$STREAMLINT" -p . --checks=-*,device-sync --no-cache --fix-dry-run
narrowed 2 "device-sync alone"
grep -qF -- "$MOVED" "$WORK/out" && fail "device-sync alone moved a launch: $(cat "$WORK/out")"
expect_stderr "would apply 3 fix(es) in 1 file(s)"
expect_stderr "default-stream is not enabled in this run"
expect_exit 1 "device-sync alone, --fix-notes" -- "$STREAMLINT" -p . --checks=-*,device-sync --no-cache --fix-dry-run --fix-notes
narrowed 4 "device-sync alone, --fix-notes"
expect_stdout "$MOVED"

# A NOLINT on one moved line: that move is not made, so neither is the
# other move of its group (line 14: all or none) nor the wait.
sed -i '13s|// applied|// NOLINT(default-stream)|' legacy.cu
expect_exit 1 "NOLINT on a moved line" -- "$STREAMLINT" -p . "$BOTH" --no-cache --fix-dry-run
narrowed 3 "NOLINT on copyLoop's copy"
expect_stderr "would apply 6 fix(es) in 1 file(s)"
expect_stderr "it relies on default-stream's fix of the cudaMemcpyAsync at line 13 (legacy.cu:13), and its finding is suppressed by NOLINT"
sed -i '13s|// NOLINT(default-stream)|// applied|' legacy.cu

# A NOLINT on the memset whose Async rewrite clearLoop's narrowed wait
# carries: the wait relies on device-sync's own fix of it, which is gone.
sed -i '70s|// applied|// NOLINT(device-sync)|' legacy.cu
expect_exit 1 "NOLINT on clearLoop's memset" -- "$STREAMLINT" -p . "$BOTH" --no-cache --fix-dry-run
narrowed 2 "NOLINT on clearLoop's memset"
expect_stderr "it relies on device-sync's fix of the cudaMemset at line 70 (legacy.cu:70), and its finding is suppressed by NOLINT"
sed -i '70s|// NOLINT(device-sync)|// applied|' legacy.cu

# default-stream's findings in the baseline: not reported, not fixed.
expect_exit 0 "baseline of default-stream" -- "$STREAMLINT" -p . --checks=-*,default-stream --no-cache --write-baseline base.json
expect_exit 1 "with the baseline" -- "$STREAMLINT" -p . "$BOTH" --no-cache --baseline base.json --fix-dry-run
narrowed 2 "baseline"
expect_stderr "would apply 3 fix(es) in 1 file(s)"
expect_stderr "its finding is in the baseline"

# A group moved to a non-blocking stream, one of its calls under NOLINT: the
# launch left alone would no longer wait for the copy kept on the legacy
# stream (a non-blocking stream is not ordered after legacy work), so the
# group is moved all or none.
mkdir -p "$WORK/nb" && cd "$WORK/nb" || exit 1
cat >nb.cu <<'CU'
#include <cuda_runtime.h>
__global__ void scale(float *d) { d[threadIdx.x] *= 2.0f; }
void run(float *d, float *h, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  scale<<<1, 32, 0, s>>>(d);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost); // MARK
  scale<<<1, 32>>>(d);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}
int main() {
  float *d, *h;
  cudaMalloc(&d, 128);
  cudaMallocHost(&h, 128);
  run(d, h, 128);
  cudaDeviceSynchronize();
  return 0;
}
CU
nvcc_database "$WORK/nb" nb.cu
expect_exit 1 "non-blocking group" -- "$STREAMLINT" -p . --checks=-*,default-stream --no-cache --fix-dry-run
expect_stderr "would apply 2 fix(es) in 1 file(s)"
expect_stdout "+  scale<<<1, 32, 0, s>>>(d);"
sed -i 's|// MARK|// NOLINT(default-stream)|' nb.cu
expect_exit 1 "non-blocking group, one call under NOLINT" -- "$STREAMLINT" -p . --checks=-*,default-stream --no-cache --fix-dry-run
grep -qF -- "+  scale<<<1, 32, 0, s>>>(d);" "$WORK/out" && fail "the launch moved without the copy it must wait for: $(cat "$WORK/out")"
expect_stderr "it relies on default-stream's fix of the cudaMemcpyAsync at line 7 (nb.cu:7), and its finding is suppressed by NOLINT"
finish
