#!/usr/bin/env bash
# Bytes that are not UTF-8 in the user's files lose nothing (issue 23, 1): a
# Latin-1 byte inside every flagged statement of every input of
# testdata/checks/, in a string literal and in a header's file name, gives
# the same findings as the plain input, with and without the index, from
# the index on the next run, and from CI shards merged; fixes whose text
# holds such bytes are applied byte for byte from the index.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"

# Every check input, each in a directory of its own (cross-TU ones whole).
mkdir -p "$WORK/plain"
for input in "$SRC"/testdata/checks/*; do
  name=$(basename "$input" .cu)
  if [ -d "$input" ]; then cp -r "$input" "$WORK/plain/$name"
  else mkdir -p "$WORK/plain/$name" && cp "$input" "$WORK/plain/$name/"; fi
done
# A header whose name is Latin-1, with a flagged call and a string literal.
mkdir -p "$WORK/plain/latin1-names"
printf '#include <cuda_runtime.h>\ninline void copie(void *d) {\n  cudaMemcpyAsync(d, (void *)"donnees", 8, cudaMemcpyHostToDevice);\n}\n' \
  >"$WORK/plain/latin1-names/$(printf 'donn\xe9es.cuh')"
printf '#include "%s"\nvoid use(void *d) { copie(d); cudaDeviceSynchronize(); }\n' \
  "$(printf 'donn\xe9es.cuh')" >"$WORK/plain/latin1-names/main.cu"

# The same tree with a Latin-1 byte after the first "(" of every line that
# expects a finding (inside the flagged call or its statement), and in the
# string literal.
cp -r "$WORK/plain" "$WORK/latin1"
for f in $(find "$WORK/latin1" -name '*.cu' -o -name '*.cuh'); do
  sed -i '/CHECK/s|(|( /* donn\xe9es */|' "$f"
done
sed -i 's|"donnees"|"donn\xe9es"|' "$WORK/latin1/latin1-names/"*.cuh
grep -rlq $'\xe9' "$WORK/latin1" || fail "no Latin-1 byte was inserted"
stub_database "$WORK/plain"
stub_database "$WORK/latin1"

# Check id, file (relative to the tree) and line of each finding, sorted:
# messages and snippets may show the byte, and a column after the inserted
# comment moves with it; nothing else may change.
positions() {
  python3 - "$1" "$2" <<'PY'
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8", errors="replace"))
root = sys.argv[2] + "/"
print("\n".join(sorted("%s %s:%s" % (f["check"], f["file"].replace(root, ""), f["line"])
                       for f in report["findings"])))
PY
}

# 1. Without the index: the reference.
expect_exit 1 "plain, --no-cache" -- "$STREAMLINT" -p "$WORK/plain" --no-cache --format json -o "$WORK/plain.json"
expect_exit 1 "Latin-1, --no-cache" -- "$STREAMLINT" -p "$WORK/latin1" --no-cache --format json -o "$WORK/nocache.json"
positions "$WORK/plain.json" "$WORK/plain" >"$WORK/want"
[ "$(wc -l <"$WORK/want")" -gt 100 ] || fail "the plain inputs gave only $(wc -l <"$WORK/want") findings"
positions "$WORK/nocache.json" "$WORK/latin1" >"$WORK/got"
diff "$WORK/want" "$WORK/got" >&2 || fail "Latin-1 bytes change the findings without the index"
grep -q 'donn.*es.cuh' "$WORK/got" || fail "no finding in the Latin-1 header"

# 2. With the index, cold then warm: the same findings, every TU stored.
tus=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/latin1/compile_commands.json")
for run in cold warm; do
  expect_exit 1 "Latin-1, index $run" -- "$STREAMLINT" -p "$WORK/latin1" --format json -o "$WORK/$run.json"
  grep -q "crashed\|internal error" "$WORK/err" && fail "index $run: $(grep -m1 'crashed\|internal error' "$WORK/err")"
  positions "$WORK/$run.json" "$WORK/latin1" >"$WORK/got"
  diff "$WORK/want" "$WORK/got" >&2 || fail "Latin-1 bytes change the findings with the index ($run)"
done
grep -q "$tus TU result(s) from the index" "$WORK/err" ||
  fail "warm run: not every TU came from the index: $(tail -1 "$WORK/err")"

# 3. CI shards: two parts merged give the same report as one run.
for i in 1 2; do
  expect_exit 0 "Latin-1, shard $i/2" -- "$STREAMLINT" -p "$WORK/latin1" --no-cache --shard="$i/2" -o "$WORK/part-$i.json"
done
expect_exit 1 "Latin-1, merge" -- "$STREAMLINT" -p "$WORK/latin1" --merge-shards "$WORK"/part-*.json --format json -o "$WORK/merged.json"
cmp -s "$WORK/merged.json" "$WORK/nocache.json" || fail "merged shards differ from one run"

# 4. A fix whose text holds the byte: the same diff from the index as from a
# fresh analysis (alloc-in-loop hoists statements with their comments).
cd "$WORK/latin1" || exit 1
"$STREAMLINT" -p . --no-cache --fix-dry-run >"$WORK/fresh.diff" 2>/dev/null
"$STREAMLINT" -p . --fix-dry-run >"$WORK/indexed.diff" 2>/dev/null
grep -q $'\xe9' "$WORK/fresh.diff" || fail "no fix carries a Latin-1 byte: the test lost its point"
cmp -s "$WORK/fresh.diff" "$WORK/indexed.diff" || fail "fixes from the index differ from a fresh analysis"
finish
