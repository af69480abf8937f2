#!/usr/bin/env bash
# A fatal error (a missing include, too many errors) is reported apart from
# recoverable errors, in every format, and --partial-analysis=warn keeps the
# report but not exit code 3.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

mkdir -p "$WORK/db"
cat >"$WORK/db/fatal.cu" <<'CU'
#include <cuda_runtime.h>
#include "generated_config.h"
void sync() { cudaDeviceSynchronize(); }
CU
cat >"$WORK/db/recoverable.cu" <<'CU'
#include <cuda_runtime.h>
void sync2() { cudaDeviceSynchronize(); not_declared(); }
CU
nvcc_database "$WORK/db" fatal.cu recoverable.cu

expect_exit 3 "fatal and recoverable errors" -- "$STREAMLINT" -p "$WORK/db" --use-color=false
expect_stdout "fatal.cu: error: translation unit analyzed partially: clang stopped at a fatal error ('generated_config.h' file not found at"
expect_stdout "findings after that point and in templates instantiated later are likely missing"
expect_stdout "recoverable.cu: error: translation unit analyzed partially after 1 error; findings may be missing"
expect_stderr "fatal.cu: analyzed partially: clang stopped at a fatal error"

expect_exit 3 "json" -- "$STREAMLINT" -p "$WORK/db" --format json
jq -e '.problems[] | select(.file | endswith("fatal.cu")) | .fatal_error | test("fatal error: .generated_config.h. file not found")' "$WORK/out" >/dev/null \
  || fail "json: fatal_error missing: $(cat "$WORK/out")"
jq -e '.problems[] | select(.file | endswith("recoverable.cu")) | .fatal_error == null' "$WORK/out" >/dev/null \
  || fail "json: recoverable TU has a fatal_error"
jq -e '.problems[] | select(.file | endswith("fatal.cu")) | .message | test("likely missing")' "$WORK/out" >/dev/null \
  || fail "json: message does not say findings are likely missing"

expect_exit 3 "sarif" -- "$STREAMLINT" -p "$WORK/db" --format sarif
jq -e '.runs[0].invocations[0].executionSuccessful == false' "$WORK/out" >/dev/null \
  || fail "sarif: executionSuccessful is not false"
jq -e '[.runs[0].invocations[0].toolExecutionNotifications[] | select(.properties["streamlint/fatalError"] != null)] | length == 1' "$WORK/out" >/dev/null \
  || fail "sarif: expected one notification with streamlint/fatalError"
jq -e '.runs[0].invocations[0].toolExecutionNotifications[] | select(.properties["streamlint/fatalError"] != null) | .message.text | test("fatal error")' "$WORK/out" >/dev/null \
  || fail "sarif: fatal notification message does not name the fatal error"

# --partial-analysis=warn: the same report, the exit code of the findings.
expect_exit 0 "--partial-analysis=warn, no warnings" -- "$STREAMLINT" -p "$WORK/db" --partial-analysis=warn --checks='-*' --allow-no-checks --use-color=false
expect_stdout "fatal.cu: error: translation unit analyzed partially"
expect_exit 3 "--partial-analysis=error" -- "$STREAMLINT" -p "$WORK/db" --partial-analysis=error --checks='-*' --allow-no-checks
expect_exit 2 "--partial-analysis=maybe" -- "$STREAMLINT" -p "$WORK/db" --partial-analysis=maybe
expect_stderr "--partial-analysis 'maybe': expected error or warn"
# -include as gcc and nvcc find it: the entry's directory first, then the
# #include "..." chain (-I). Not found would be a fatal error (exit 3).
mkdir -p "$WORK/pre/inc" "$WORK/pre2/inc"
cat >"$WORK/pre/inc/pre.h" <<'H'
#define PRE_INCLUDED 1
H
cat >"$WORK/pre/a.cu" <<'CU'
#ifndef PRE_INCLUDED
#error the forced include was not read
#endif
CU
cat >"$WORK/pre/compile_commands.json" <<JSON
[
 {"directory": "$WORK/pre", "file": "a.cu", "command": "nvcc -include pre.h -Iinc -c a.cu -o a.o"},
 {"directory": "$WORK/pre", "file": "b.cu", "command": "nvcc -Xcompiler -include,pre.h -Iinc -c b.cu -o b.o"}
]
JSON
cp "$WORK/pre/a.cu" "$WORK/pre/b.cu"
expect_exit 0 "-include found on -I" -- "$STREAMLINT" -p "$WORK/pre" --checks='-*' --allow-no-checks --use-color=false
cp "$WORK/pre/a.cu" "$WORK/pre2/a.cu"
echo '#define PRE_INCLUDED 1' >"$WORK/pre2/pre.h"
echo '#error the -I copy was read before the working directory' >"$WORK/pre2/inc/pre.h"
cat >"$WORK/pre2/compile_commands.json" <<JSON
[{"directory": "$WORK/pre2", "file": "a.cu", "command": "nvcc -include pre.h -Iinc -c a.cu -o a.o"}]
JSON
expect_exit 0 "-include: the working directory first" -- "$STREAMLINT" -p "$WORK/pre2" --checks='-*' --allow-no-checks --use-color=false
# Errors in device-only code (a __global__ or __device__ body, or its
# template instantiations) cannot hide a host finding: they do not make a TU
# partial. That is where nvcc's front end accepts what clang rejects: a
# __shared__ libcu++ barrier default-constructed (nvcc's warning #20054), a
# dependent member template called without `template`. An error in host code,
# or in a __host__ __device__ function, still does.
if [ -f /usr/local/cuda/include/cuda/pipeline ]; then
  mkdir -p "$WORK/device"
  cat >"$WORK/device/k.cu" <<'CU'
#include <cuda/barrier>
#include <cuda/pipeline>
__global__ void k(float *out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ cuda::barrier<cuda::thread_scope_block> bar, second;
  out[0] = 1.0f;
}
template <typename T> struct Cast {
  template <int N> __device__ static void cast(T *dst) { dst[0] = T(N); }
};
template <typename T> __device__ void castAll(T *dst) {
  Cast<T>::cast<4>(dst); // EDG accepts this without `template`
}
__global__ void kernel(float *out) { castAll(out); }
void launch(float *out) { kernel<<<1, 1>>>(out); }
CU
  cat >"$WORK/device/both.cu" <<'CU'
__host__ __device__ int both(int *p) { return undeclared_in_both(p); }
CU
  cat >"$WORK/device/compile_commands.json" <<JSON
[{"directory": "$WORK/device", "file": "k.cu", "command": "nvcc -std=c++17 -arch=sm_90 -c k.cu -o k.o"},
 {"directory": "$WORK/device", "file": "both.cu", "command": "nvcc -arch=sm_90 -c both.cu -o both.o"}]
JSON
  expect_exit 3 "device-only errors do not make a TU partial, host ones do" -- \
    "$STREAMLINT" -p "$WORK/device" --checks='-*' --allow-no-checks --use-color=false
  expect_stdout "both.cu: error: translation unit analyzed partially after 1 error"
  grep -q "k.cu: error" "$WORK/out" && fail "k.cu reported partial: $(cat "$WORK/out")"
fi
finish
