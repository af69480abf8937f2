# Shared helpers for the end-to-end tests (sourced).
set -u
STREAMLINT=${STREAMLINT:?set STREAMLINT to the streamlint binary}
SRC=${STREAMLINT_SOURCE_DIR:?set STREAMLINT_SOURCE_DIR to the source tree}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

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
