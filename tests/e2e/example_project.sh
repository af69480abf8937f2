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

# The project index and CI shards (docs/index.md) on this real nvcc database.
# Named files: what the whole-database run reports in the file and the
# project headers it includes, in JSON and SARIF.
"$STREAMLINT" -p "$WORK/build" --no-cache --format sarif -o "$WORK/one.sarif" 2>/dev/null
scoped() { # REPORT FORMAT FILE...: the report's results in these files, canonical
  python3 - "$@" <<'PY'
import json, sys
report, fmt, keep = json.load(open(sys.argv[1])), sys.argv[2], set(sys.argv[3:])
if fmt == "json":
    items = [(f["file"], f) for f in report["findings"]]
else:
    items = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r)
             for r in report["runs"][0]["results"]]
print("\n".join(sorted(json.dumps(i, sort_keys=True) for f, i in items
                        if not keep or f.split("/")[-1] in keep)))
PY
}
for f in src/*.cu src/*.cpp src/pipeline.h; do
  base=$(basename "$f")
  scope=("$base")
  for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do scope+=("$(basename "$h")"); done
  "$STREAMLINT" -p "$WORK/build" --format json -o "$WORK/named.json" "$f" 2>"$WORK/named.err"
  code=$?
  case $code in 0|1) ;; *) fail "named $base: exit $code"; cat "$WORK/named.err" >&2 ;; esac
  "$STREAMLINT" -p "$WORK/build" --format sarif -o "$WORK/named.sarif" "$f" 2>/dev/null
  [ "$(scoped "$WORK/out.json" json "${scope[@]}")" = "$(scoped "$WORK/named.json" json)" ] \
    || fail "named $base: JSON findings differ from the whole-database run's in its files"
  [ "$(scoped "$WORK/one.sarif" sarif "${scope[@]}")" = "$(scoped "$WORK/named.sarif" sarif)" ] \
    || fail "named $base: SARIF results differ from the whole-database run's in its files"
done
# Shards of 2 and 3, merged: the golden text, and JSON and SARIF byte for byte.
for n in 2 3; do
  parts=()
  for i in $(seq 1 $n); do
    "$STREAMLINT" -p "$WORK/build" --shard=$i/$n -o "$WORK/part$i.json" 2>"$WORK/shard.err" \
      || { fail "shard $i/$n failed"; cat "$WORK/shard.err" >&2; }
    parts+=("$WORK/part$i.json")
  done
  "$STREAMLINT" -p "$WORK/build" --use-color=false --merge-shards "${parts[@]}" >"$WORK/merged.txt" 2>/dev/null
  code=$?
  [ "$code" = 1 ] || fail "merge of $n shards: exit $code, expected 1"
  diff -u "$EXAMPLE/expected-output.txt" "$WORK/merged.txt" >&2 || fail "merge of $n shards: text differs from the golden"
  "$STREAMLINT" -p "$WORK/build" --format json -o "$WORK/merged.json" --merge-shards "${parts[@]}" 2>/dev/null
  cmp -s "$WORK/out.json" "$WORK/merged.json" || fail "merge of $n shards: JSON differs from one run"
  "$STREAMLINT" -p "$WORK/build" --format sarif -o "$WORK/merged.sarif" --merge-shards "${parts[@]}" 2>/dev/null
  cmp -s "$WORK/one.sarif" "$WORK/merged.sarif" || fail "merge of $n shards: SARIF differs from one run"
done
finish
