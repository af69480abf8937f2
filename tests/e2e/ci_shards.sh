#!/usr/bin/env bash
# CI shards (docs/index.md, "CI shards"): --shard=I/N runs for N = 2 and 3,
# merged with --merge-shards, give byte for byte the JSON and SARIF report
# (and exit code) of one run over the whole database, on every cross-TU test
# project (whole-program findings) and on a project with a config file,
# subdirectories, a TU without CUDA and a TU with compile errors. Shard
# assignment does not depend on where the project is checked out. A merge of
# a missing, duplicate, mixed, damaged, foreign or stale shard set exits 2
# and names the file.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"


# shards_equal NAME N: the N shards merged equal the whole-database run (JSON,
# SARIF, exit code); each TU is in exactly one part (third_party/ is
# excluded by the config of the project that has one).
shards_equal() {
  local name=$1 n=$2 i parts=() units=0
  for i in $(seq 1 "$n"); do
    "$STREAMLINT" -p . --shard="$i/$n" -o "$WORK/part$i.json" 2>"$WORK/shard.err"
    code=$?
    [ "$code" = 0 ] || { fail "$name: shard $i/$n exited $code"; cat "$WORK/shard.err" >&2; }
    grep -q "shard $i/$n: " "$WORK/shard.err" || fail "$name: shard $i/$n printed no summary"
    parts+=("$WORK/part$i.json")
    units=$((units + $(python3 -c 'import json,sys; print(len(json.loads(open(sys.argv[1]).read().split("\n", 1)[1])["units"]))' "$WORK/part$i.json")))
  done
  [ "$units" = "$(python3 -c 'import json; print(len([e for e in json.load(open("compile_commands.json")) if "third_party" not in e["file"]]))')" ] \
    || fail "$name: $n shards hold $units TU results, not one per database entry"
  for format in json sarif; do
    "$STREAMLINT" -p . --format $format -o "$WORK/merged.$format" --merge-shards "${parts[@]}" \
      2>"$WORK/merge.err"
    code=$?
    [ "$code" = "$whole_code" ] || { fail "$name: merge of $n shards exited $code, one run $whole_code"; cat "$WORK/merge.err" >&2; }
    cmp -s "$WORK/whole.$format" "$WORK/merged.$format" \
      || { fail "$name: $n shards merged differ from one run ($format)"; diff "$WORK/whole.$format" "$WORK/merged.$format" | head -20 >&2; }
  done
  "$STREAMLINT" -p . --use-color=false --merge-shards "${parts[@]}" >"$WORK/merged.txt" 2>/dev/null
  cmp -s "$WORK/whole.txt" "$WORK/merged.txt" || fail "$name: $n shards merged differ from one run (text)"
}

whole_run() {
  "$STREAMLINT" -p . --no-cache --format json -o "$WORK/whole.json" 2>/dev/null
  whole_code=$?
  "$STREAMLINT" -p . --no-cache --format sarif -o "$WORK/whole.sarif" 2>/dev/null
  "$STREAMLINT" -p . --no-cache --use-color=false >"$WORK/whole.txt" 2>/dev/null
}

# --- 1. shards + merge == one run ---------------------------------------------
for project in "$SRC"/testdata/checks/*-cross-tu; do
  name=$(basename "$project")
  P=$WORK/$name
  cp -r "$project" "$P"
  stub_database "$P"
  cd "$P" || exit 1
  whole_run
  grep -q '"findings": \[\]' "$WORK/whole.json" && fail "$name: one run found nothing"
  shards_equal "$name" 2
  rm -rf .streamlint
  shards_equal "$name" 3
done

P=$WORK/mixed
mkdir -p "$P/src/core" "$P/src/io" "$P/third_party" "$P/host"
cat >"$P/src/core/common.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void syncAll() { cudaDeviceSynchronize(); }
CU
for i in 1 2 3 4 5 6; do
  dir=core; [ $((i % 2)) = 0 ] && dir=io
  cat >"$P/src/$dir/step$i.cu" <<CU
#include "../core/common.cuh"
void step$i(int n, float *d, const float *h) {
  for (int k = 0; k < n; ++k) { syncAll(); cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, 0); }
}
CU
done
printf '#include <cuda_runtime.h>\nvoid vendored() { cudaDeviceSynchronize(); }\n' >"$P/third_party/vendored.cu"
printf 'int hostOnly() { return 1; }\n' >"$P/host/plain.cpp"
printf '#include <cuda_runtime.h>\nvoid broken(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); undeclared(); }\n' >"$P/src/io/broken.cu"
printf "ExcludePaths: ['third_party/*']\nCheckOptions:\n  device-sync.ExtraSyncFunctions: 'syncAll'\n" >"$P/.streamlint.yaml"
stub_database "$P"
cd "$P" || exit 1
whole_run
[ "$whole_code" = 3 ] || fail "mixed: one run exited $whole_code, expected 3 (broken.cu)"
shards_equal mixed 2
shards_equal mixed 3
"$STREAMLINT" -p . --no-cache --all-translation-units --format json -o "$WORK/whole.json" 2>/dev/null
for i in 1 2; do
  "$STREAMLINT" -p . --all-translation-units --shard=$i/2 -o "$WORK/all$i.json" 2>/dev/null
done
"$STREAMLINT" -p . --all-translation-units --format json -o "$WORK/merged.json" \
  --merge-shards "$WORK/all1.json" "$WORK/all2.json" 2>/dev/null
cmp -s "$WORK/whole.json" "$WORK/merged.json" || fail "mixed: --all-translation-units shards differ from one run"

# A directory of parts (as CI artifact downloads lay them out) merges too.
mkdir -p "$WORK/artifacts/shard-1" "$WORK/artifacts/shard-2"
"$STREAMLINT" -p . --shard=1/2 -o "$WORK/artifacts/shard-1/part.json" 2>/dev/null
"$STREAMLINT" -p . --shard=2/2 -o "$WORK/artifacts/shard-2/part.json" 2>/dev/null
"$STREAMLINT" -p . --no-cache --format json -o "$WORK/whole.json" 2>/dev/null
"$STREAMLINT" -p . --format json -o "$WORK/merged.json" --merge-shards "$WORK/artifacts" 2>/dev/null
cmp -s "$WORK/whole.json" "$WORK/merged.json" || fail "merge of a directory of parts differs from one run"
ls "$WORK"/artifacts/*/*.tmp-* >/dev/null 2>&1 && fail "a shard left a temporary file"

# Shards are assigned by the path relative to the database: the same in
# another checkout directory.
cp -r "$P" "$WORK/elsewhere"
rm -rf "$WORK/elsewhere/.streamlint"
sed -i "s|$P|$WORK/elsewhere|g" "$WORK/elsewhere/compile_commands.json"
(cd "$WORK/elsewhere" && "$STREAMLINT" -p . --shard=1/3 -o "$WORK/there.json" 2>/dev/null)
"$STREAMLINT" -p . --shard=1/3 -o "$WORK/here.json" 2>/dev/null
# A part is its seal line, then JSON (docs/index.md, "What the index trusts").
units_of() { python3 -c 'import json,sys; print(sorted(u["file"] for u in json.loads(open(sys.argv[1]).read().split("\n", 1)[1])["units"]))' "$1"; }
[ "$(units_of "$WORK/here.json")" = "$(units_of "$WORK/there.json")" ] \
  || fail "shard 1/3 holds other TUs in another checkout directory"

# --- 2. the merge refuses an incomplete, mixed or stale set --------------------
for i in 1 2; do "$STREAMLINT" -p . --shard=$i/2 -o "$WORK/s$i.json" 2>/dev/null; done
for i in 1 2 3; do "$STREAMLINT" -p . --shard=$i/3 -o "$WORK/t$i.json" 2>/dev/null; done
merge() { expect_exit 2 "$1" -- "$STREAMLINT" -p . --format json -o "$WORK/m.json" --merge-shards "${@:2}"; }
merge "missing shard" "$WORK/s1.json"
expect_stderr "incomplete shard set: shard(s) 2/2 missing"
merge "missing shards of 3" "$WORK/t2.json"
expect_stderr "shard(s) 1/3, 3/3 missing"
merge "duplicate shard" "$WORK/s1.json" "$WORK/s2.json" "$WORK/s1.json"
expect_stderr "s1.json and $WORK/s1.json are both shard 1/2"
merge "mixed shard counts" "$WORK/s1.json" "$WORK/t2.json" "$WORK/t3.json"
expect_stderr "t2.json: shard 2/3, but $WORK/s1.json is shard 1/2"
head -c 200 "$WORK/s2.json" >"$WORK/trunc.json"
merge "truncated part" "$WORK/s1.json" "$WORK/trunc.json"
expect_stderr "trunc.json: not a shard part (truncated or not JSON"
python3 - "$WORK/s2.json" "$WORK/nocomplete.json" <<'PY'
import json, sys
seal, body = open(sys.argv[1]).read().split("\n", 1)
part = json.loads(body); del part["complete"]
open(sys.argv[2], "w").write(seal + "\n" + json.dumps(part))
PY
merge "part without its end marker" "$WORK/s1.json" "$WORK/nocomplete.json"
expect_stderr "nocomplete.json: malformed shard part: incomplete"
merge "not a part" "$WORK/s1.json" compile_commands.json
expect_stderr "compile_commands.json: not a streamlint-shard-3 shard part"
sed 's/"tool":"streamlint [^"]*"/"tool":"streamlint 0.0.0"/' "$WORK/s2.json" >"$WORK/old.json"
merge "other version" "$WORK/s1.json" "$WORK/old.json"
expect_stderr "old.json: written by streamlint 0.0.0"
merge "no such part" "$WORK/s1.json" "$WORK/nothere.json"
expect_stderr "nothere.json: no such shard part or directory"
mkdir -p "$WORK/empty"
merge "empty directory" "$WORK/empty"
expect_stderr "empty: directory holds no shard part"
expect_exit 2 "merge with --all-translation-units of shards without it" -- \
  "$STREAMLINT" -p . --all-translation-units --merge-shards "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "the shard ran without --all-translation-units, this merge with it"
cd "$WORK/elsewhere" || exit 1
expect_exit 2 "merge in another checkout" -- \
  "$STREAMLINT" -p . --merge-shards "$WORK/s1.json" "$WORK/s2.json"
cd "$P" || exit 1
expect_stderr "written for the compile database $P/compile_commands.json, this merge reads $WORK/elsewhere/compile_commands.json"
# The tree or the database changed between the shards and the merge.
cp src/core/common.cuh "$WORK/common.cuh.orig"
echo '// edited' >>src/core/common.cuh
merge "header edited after the shards" "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "common.cuh changed (or is missing) since shard"
cp "$WORK/common.cuh.orig" src/core/common.cuh
cp compile_commands.json "$WORK/db.orig"
sed -i 's|-c '"$P"'/src/core/step1.cu|-DCHANGED -c '"$P"'/src/core/step1.cu|' compile_commands.json
merge "flag changed after the shards" "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "src/core/step1.cu was analyzed with another command, config or options"
cp "$WORK/db.orig" compile_commands.json
printf '#include <cuda_runtime.h>\nvoid later() { cudaDeviceSynchronize(); }\n' >src/later.cu
stub_database "$P"
merge "TU added after the shards" "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "has no result for src/later.cu, which belongs to it"
rm src/later.cu
python3 - "$WORK/db.orig" compile_commands.json <<'PY'
import json, sys
entries = [e for e in json.load(open(sys.argv[1])) if not e["file"].endswith("step2.cu")]
json.dump(entries, open(sys.argv[2], "w"))
PY
merge "TU removed after the shards" "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "has a result for src/io/step2.cu, which this merge does not analyze: the compile database"
cp "$WORK/db.orig" compile_commands.json
printf "Checks: '-*,device-sync'\n" >>.streamlint.yaml
merge "config changed after the shards" "$WORK/s1.json" "$WORK/s2.json"
expect_stderr "was analyzed with another command, config or options"

# --- 3. usage errors -------------------------------------------------------------
for bad in 0/2 3/2 x 1/0 2; do
  expect_exit 2 "--shard=$bad" -- "$STREAMLINT" -p . --shard=$bad -o "$WORK/x.json"
  expect_stderr "--shard '$bad': expected I/N with 1 <= I <= N"
done
expect_exit 2 "--shard without -o" -- "$STREAMLINT" -p . --shard=1/2
expect_stderr "--shard: name the shard part to write with -o FILE"
expect_exit 2 "--shard with files" -- "$STREAMLINT" -p . --shard=1/2 -o "$WORK/x.json" src/core/step1.cu
expect_stderr "--shard analyzes the whole compile database"
expect_exit 2 "--shard with --format" -- "$STREAMLINT" -p . --shard=1/2 -o "$WORK/x.json" --format sarif
expect_stderr "belong to the --merge-shards run"
expect_exit 2 "--merge-shards without parts" -- "$STREAMLINT" -p . --merge-shards
expect_stderr "--merge-shards: name the shard parts"
expect_exit 2 "--shard with --merge-shards" -- "$STREAMLINT" -p . --shard=1/2 -o "$WORK/x.json" --merge-shards "$WORK/s1.json"
expect_stderr "exclude each other"
expect_exit 2 "unwritable part" -- "$STREAMLINT" -p . --shard=1/2 -o "$WORK/nodir/part.json"
expect_stderr "cannot write the shard part: $WORK/nodir/part.json"
finish
