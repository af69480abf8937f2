#!/usr/bin/env bash
# Bad build input is an error, never a crash (issue 10): options files nvcc
# could not open fail their TU by name; a compile database that is not valid
# is exit 2 with file and position whatever its depth; a TU that crashes
# clang's parser loses that TU only.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

mkdir -p "$WORK/p/rsp.d"
for name in clean missing itself cycle directory; do
  printf '#include <cuda_runtime.h>\nvoid %s() { cudaDeviceSynchronize(); }\n' "$name" >"$WORK/p/$name.cu"
done
echo '-DOK' >"$WORK/p/ok.rsp"
echo '-DSELF --options-file itself.rsp' >"$WORK/p/itself.rsp"
echo '-DA -optf=b.rsp' >"$WORK/p/a.rsp"
echo '-DB @a.rsp' >"$WORK/p/b.rsp"
entry() { printf '{"directory": "%s", "file": "%s.cu", "command": "nvcc %s -x cu -c %s.cu -o %s.o"}' "$WORK/p" "$1" "$2" "$1" "$1"; }
{
  echo "["
  entry clean "--options-file ok.rsp"; echo ","
  entry missing "--options-file gone.rsp"; echo ","
  entry itself "-optf itself.rsp"; echo ","
  entry cycle "--options-file=a.rsp"; echo ","
  entry directory "--options-file rsp.d"
  echo "]"
} >"$WORK/p/compile_commands.json"

# Each TU still parses (best effort) and its findings are reported, but the
# run is incomplete: exit 3, each bad entry named with its file.
expect_exit 3 "bad options files" -- "$STREAMLINT" -p "$WORK/p" --use-color=false
for name in clean missing itself cycle directory; do expect_stdout "$name.cu:2:"; done
expect_stderr "$WORK/p/missing.cu: analyzed partially"
expect_stderr "'--options-file gone.rsp' ($WORK/p/gone.rsp): cannot open options file: No such file"
expect_stderr "'--options-file itself.rsp' ($WORK/p/itself.rsp): the options file refers to itself"
expect_stderr "cycle: $WORK/p/a.rsp -> $WORK/p/b.rsp -> $WORK/p/a.rsp"
expect_stderr "($WORK/p/rsp.d): cannot open options file: it is a directory"
grep -q "clean.cu: analyzed" "$WORK/err" && fail "clean.cu reported as failed"
expect_stderr "4 could not be analyzed fully"
# The same in machine-readable output.
expect_exit 3 "bad options files, JSON" -- "$STREAMLINT" -p "$WORK/p" --format json
grep -q "gone.rsp" "$WORK/out" || fail "JSON output does not name gone.rsp"

# compile_commands.json nested 100,000 arrays deep: exit 2 with position
# (it crashed the JSON reader with a segmentation fault).
mkdir -p "$WORK/deep"
python3 -c "import sys; sys.stdout.write('[' * 100000 + ']' * 100000)" >"$WORK/deep/compile_commands.json"
expect_exit 2 "deeply nested database" -- "$STREAMLINT" -p "$WORK/deep"
expect_stderr "$WORK/deep/compile_commands.json:1:513: malformed compile database: nested more than 512 levels deep"

# A crashed TU's memory is abandoned by design: under a sanitizer build, do
# not count it as a leak here (every other test keeps leak checking).
case "${STREAMLINT_SANITIZE:-}" in *address*) export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 ;; esac
# One TU whose parse overflows clang's stack (clang++-22 -fsyntax-only dies
# with a segmentation fault on it) between two TUs with findings.
mkdir -p "$WORK/crash"
printf '#include <cuda_runtime.h>\nvoid first() { cudaDeviceSynchronize(); }\n' >"$WORK/crash/first.cu"
# (2,000 nested parentheses crash clang++-22's 8 MiB stack but parse on
# streamlint's 64 MiB one, up to clang's bracket limit: a million unary
# operators have no such limit and overflow any stack.)
python3 -c "
print('#include <cuda_runtime.h>')
print('int nested() { cudaDeviceSynchronize(); return ' + '!' * 1000000 + '1; }')" >"$WORK/crash/nested.cu"
printf '#include <cuda_runtime.h>\nvoid last() { cudaDeviceSynchronize(); }\n' >"$WORK/crash/last.cu"
cat >"$WORK/crash/compile_commands.json" <<JSON
[{"directory": "$WORK/crash", "file": "first.cu", "command": "nvcc -x cu -c first.cu"},
 {"directory": "$WORK/crash", "file": "nested.cu", "command": "nvcc -x cu -c nested.cu"},
 {"directory": "$WORK/crash", "file": "last.cu", "command": "nvcc -x cu -c last.cu"}]
JSON
for jobs in 1 2; do
  expect_exit 3 "TU that crashes the parser (-j $jobs)" -- "$STREAMLINT" -p "$WORK/crash" -j "$jobs" --use-color=false
  expect_stdout "first.cu:2:"
  expect_stdout "last.cu:2:"
  expect_stderr "$WORK/crash/nested.cu: not analyzed"
  expect_stderr "clang crashed while parsing this translation unit: Segmentation fault"
  expect_stderr "3 translation unit(s); 1 could not be analyzed fully"
done
expect_exit 3 "crash in SARIF" -- "$STREAMLINT" -p "$WORK/crash" --format sarif
grep -q "clang crashed" "$WORK/out" || fail "SARIF does not carry the crash"
finish
