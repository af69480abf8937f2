#!/usr/bin/env bash
# A report that cannot be written is an error that says so, never a silent
# exit 1 with an empty or cut report (issue 23, 2): -o, stdout,
# --write-baseline, --export-fixes and the GitHub job summary on a full
# device (/dev/full) or past the file size limit; the index on a "full
# disk" loses no TU; a report file that cannot be replaced keeps its old
# contents.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
P=$WORK/project
mkdir -p "$P"
cp "$SRC/testdata/checks/device-sync.cu" "$SRC/testdata/checks/alloc-in-loop.cu" "$P/"
# One applicable fix (the launch moves to the stream in scope), for the diff.
cat >"$P/fixable.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void k(float *d) {}
void f(float *d) {
  cudaDeviceSynchronize();
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 1, 0, s>>>(d);
  k<<<1, 1>>>(d);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}
CU
stub_database "$P"
cd "$P" || exit 1
# A full device of our own: a regression that replaced the output file
# would otherwise replace the machine's /dev/full (mknod needs root, as CI).
FULL=$WORK/full
mknod "$FULL" c 1 7 || { echo "skipped: mknod needs root"; exit 77; }

expect_exit 2 "-o a full device" -- "$STREAMLINT" -p . --no-cache -o "$FULL"
expect_stderr "$FULL: cannot write the report: No space left on device"
expect_exit 2 "stdout on /dev/full" -- bash -c '"$0" -p . --no-cache >/dev/full' "$STREAMLINT"
expect_stderr "cannot write the report to standard output: No space left on device"
expect_exit 2 "--write-baseline on a full device" -- "$STREAMLINT" -p . --no-cache --write-baseline "$FULL"
expect_stderr "$FULL: cannot write the baseline"
expect_exit 2 "--export-fixes on a full device" -- "$STREAMLINT" -p . --no-cache --export-fixes "$FULL"
expect_stderr "$FULL: cannot write the fixes"
expect_exit 2 "--fix-dry-run to /dev/full" -- bash -c '"$0" -p . --no-cache --fix-dry-run >/dev/full' "$STREAMLINT"
expect_stderr "cannot write the fixes' diff to standard output"
GITHUB_STEP_SUMMARY=$FULL expect_exit 1 "job summary on a full device" -- \
  "$STREAMLINT" -p . --no-cache --format github
expect_stderr "cannot write the job summary to $FULL"
expect_stdout "::warning title=streamlint::cannot write the job summary to $FULL"

# Past the file size limit (a full disk, as far as each write can tell): the
# report file keeps its old contents, and no TU is lost to the index.
"$STREAMLINT" -p . --no-cache --format json >"$WORK/reference.json" 2>/dev/null
echo "the previous report" >"$WORK/report.json"
expect_exit 2 "-o past the file size limit" -- \
  bash -c 'trap "" XFSZ; ulimit -f 1; exec "$0" -p . --no-cache --format json -o "$1"' \
  "$STREAMLINT_BINARY" "$WORK/report.json"
expect_stderr "cannot write the report: File too large"
[ "$(cat "$WORK/report.json")" = "the previous report" ] || fail "the old report was damaged"
ls -a "$WORK" | grep -q '\.streamlint-' && fail "a temporary report file was left behind"
# Index entries cannot be written: a note, and the report is whole (stdout is
# a pipe, which the limit does not cover).
(trap "" XFSZ; ulimit -f 1; exec "$STREAMLINT_BINARY" -p . --format json 2>"$WORK/err") |
  cat >"$WORK/full-disk.json"
status=${PIPESTATUS[0]}
[ $status = 1 ] || fail "cold run with the index on a full disk: exit $status, expected 1"
grep -q "crashed\|internal error" "$WORK/err" && fail "a TU was lost: $(cat "$WORK/err")"
expect_stderr "cannot write the index in"
cmp -s "$WORK/reference.json" "$WORK/full-disk.json" || fail "the report differs on a full disk"
finish
