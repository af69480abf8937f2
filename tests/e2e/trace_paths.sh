#!/usr/bin/env bash
# A probe trace is data, not a list of files to read (issue 23, 4): a
# runtime-only finding the trace places in /etc/passwd, in a mode-0600
# secret outside the project or on a FIFO is reported without its source
# line, and the file is never opened; one inside the project shows its line.
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
  expect_exit 1 "--trace, $format" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/run.trace" --format $format
  grep -q "root:" "$WORK/out" && fail "$format: a line of /etc/passwd was printed"
  grep -q "TOP-SECRET-TOKEN" "$WORK/out" && fail "$format: the secret was printed"
done
expect_exit 1 "--trace, text" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace "$WORK/run.trace"
expect_stdout "/etc/passwd:1:1: warning:"
expect_stdout "// in the project"
finish
