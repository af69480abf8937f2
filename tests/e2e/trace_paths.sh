#!/usr/bin/env bash
# A probe trace is data, not a list of files to read (issue 23, 4): a
# runtime-only observation the trace places in /etc/passwd, in a mode-0600
# secret outside the project or on a FIFO is never opened, and (issue 27)
# not reported at that path: it lies outside the program, a note counts its
# calls; one inside the project shows its line. Several traces merge as one
# run, named one by one or by their directory.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
P=$WORK/project
mkdir -p "$P" "$WORK/outside"
printf '#include <cuda_runtime.h>\nvoid f() {\n  cudaDeviceSynchronize(); // in the project\n}\n' >"$P/app.cu"
stub_database "$P"
echo "TOP-SECRET-TOKEN" >"$WORK/outside/secret.txt"
chmod 600 "$WORK/outside/secret.txt"
mkfifo "$WORK/outside/fifo"
observation() {
  printf '{"check": "device-sync", "api": "cudaDeviceSynchronize", "file": "%s", "line": %s, "function": "f", "calls": 2, "misuses": 2}' "$1" "$2"
}
cat >"$WORK/run.trace" <<JSON
{"format": "streamlint-trace", "version": 1, "program": "app", "exit_status": 0, "processes": 1, "dropped_calls": 0,
 "observations": [$(observation /etc/passwd 1), $(observation "$WORK/outside/secret.txt" 1),
                  $(observation "$WORK/outside/fifo" 1), $(observation "$P/../outside/secret.txt" 1),
                  $(observation "$P/app.cu" 3)]}
JSON
cd "$P" || exit 1
for format in text json sarif github gitlab; do
  expect_exit 0 "--trace, $format" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/run.trace" --format $format
  grep -q "root:" "$WORK/out" && fail "$format: a line of /etc/passwd was printed"
  grep -q "TOP-SECRET-TOKEN" "$WORK/out" && fail "$format: the secret was printed"
done
expect_exit 0 "--trace, text" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/run.trace"
grep -q "/etc/passwd" "$WORK/out" && fail "a finding was reported at /etc/passwd"
expect_stdout "// in the project"
expect_stderr "made in code outside the project with no frame of the program"

mkdir -p "$WORK/traces"
cp "$WORK/run.trace" "$WORK/traces/rank0.trace"
cp "$WORK/run.trace" "$WORK/traces/rank1.trace"
expect_exit 0 "--trace DIR" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/traces" --format json
expect_stderr "merged 2 traces: 2 process(es)"
expect_stdout '"calls": 4'
expect_exit 0 "--trace twice" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/traces/rank0.trace" --trace "$WORK/traces/rank1.trace"
expect_stderr "merged 2 traces"
finish
