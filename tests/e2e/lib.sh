# Shared helpers for the end-to-end tests (sourced).
set -u
STREAMLINT=${STREAMLINT:?set STREAMLINT to the streamlint binary}
SRC=${STREAMLINT_SOURCE_DIR:?set STREAMLINT_SOURCE_DIR to the source tree}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Every run of streamlint here goes through a wrapper that fails the test on
# what no input may cause, whatever the test itself expects: streamlint's
# own internal error (a bug, not bad input), an LLVM fatal error, an exit
# status outside 0-4. finish() reports what it saw.
STREAMLINT_BINARY=$STREAMLINT
STREAMLINT=$WORK/streamlint
ORACLE_LOG=$WORK/oracle.log
cat >"$STREAMLINT" <<WRAPPER
#!/usr/bin/env bash
err=\$(mktemp)
"$STREAMLINT_BINARY" "\$@" 2>"\$err"
status=\$?
cat "\$err" >&2
if grep -qE 'internal error in streamlint|LLVM ERROR|terminate called' "\$err" ||
   [ \$status -gt 4 ]; then
  { echo "streamlint \$* -> exit \$status:"; sed 's/^/    /' "\$err"; } >>"$ORACLE_LOG"
fi
rm -f "\$err"
exit \$status
WRAPPER
chmod +x "$STREAMLINT"

# expect_exit CODE DESCRIPTION -- COMMAND...
expect_exit() {
  local want=$1 what=$2; shift 3
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    fail "$what: exit $got, expected $want"; sed 's/^/  | /' "$WORK/err" >&2
  fi
}

expect_stderr() { grep -qF -- "$1" "$WORK/err" || fail "stderr lacks '$1': $(cat "$WORK/err")"; }
expect_stdout() { grep -qF -- "$1" "$WORK/out" || fail "stdout lacks '$1'"; }

finish() {
  if [ -s "$ORACLE_LOG" ]; then
    fail "streamlint failed in a way no input may cause:"; sed 's/^/  | /' "$ORACLE_LOG" >&2
  fi
  if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
  echo "all passed"
}

# stub_database DIR: compile_commands.json for every .cu/.cpp under DIR,
# clang commands with the stub CUDA headers ($FLAGS, set by the caller).
stub_database() {
  local dir=$1 first=1
  { echo "["
    for f in $(cd "$dir" && find . -name '*.cu' -o -name '*.cpp' | sort); do
      f="$dir/${f#./}"
      [ $first = 1 ] || echo ","
      first=0
      printf ' {"directory": "%s", "file": "%s", "command": "clang++ %s -c %s"}' \
        "$dir" "$f" "$FLAGS" "$f"
    done
    echo "]"; } >"$dir/compile_commands.json"
}

# nvcc_database DIR FILE...: compile_commands.json in DIR with one nvcc
# entry per FILE (relative to DIR), as CMake writes them for CUDA sources.
nvcc_database() {
  local dir=$1 sep="[" f; shift
  { for f in "$@"; do
      printf '%s{"directory": "%s", "file": "%s", "command": "nvcc -x cu -c %s -o %s.o"}\n' \
        "$sep" "$dir" "$f" "$f" "${f%.*}"
      sep=" ,"
    done
    echo "]"; } >"$dir/compile_commands.json"
}

# fix_program NAME FILE...: a copy of testdata/fixes/programs/NAME in
# $WORK/p, without its .fixed goldens, with an nvcc database of FILEs.
fix_program() {
  local name=$1; shift
  cp -r "$SRC/testdata/fixes/programs/$name" "$WORK/p"
  rm -f "$WORK/p"/*.fixed
  nvcc_database "$WORK/p" "$@"
}
