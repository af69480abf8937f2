#!/usr/bin/env bash
# The bundled example project, configured by CMake with nvcc exactly as a
# user's project is, analyzed by streamlint; output compared with the golden.
. "$(dirname "$0")/lib.sh"
EXAMPLE=$SRC/testdata/example
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "no nvcc: skipped"; exit 77; }
export PATH=$PATH:/usr/local/cuda/bin

cmake -S "$EXAMPLE" -B "$WORK/build" >"$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; exit 1; }

# Paths are printed relative to the current directory: run from the example.
cd "$EXAMPLE"
"$STREAMLINT" -p "$WORK/build" --use-color=false -j 1 >"$WORK/j1.txt" 2>"$WORK/j1.err"
code=$?
[ "$code" = 1 ] || { fail "exit $code, expected 1 (findings)"; cat "$WORK/j1.err" >&2; }
"$STREAMLINT" -p "$WORK/build" --use-color=false -j 2 >"$WORK/j2.txt" 2>/dev/null
cmp -s "$WORK/j1.txt" "$WORK/j2.txt" || fail "-j 1 and -j 2 outputs differ"
if ! diff -u "$EXAMPLE/expected-output.txt" "$WORK/j1.txt"; then
  fail "text output differs from testdata/example/expected-output.txt"
fi
"$STREAMLINT" -p "$WORK/build" --format json -o "$WORK/out.json" 2>/dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['findings'])>0" "$WORK/out.json" \
  || fail "json output has no findings"
finish
