#!/usr/bin/env bash
# The project index (docs/index.md) end to end: named files report what a
# whole-database run reports for them, on every multi-TU test project; a
# warm run reads every TU from the index and prints the same report;
# entries are invalidated by a header edit, a flag change, a config change,
# a new binary and a deleted file; damaged entries are rebuilt; concurrent
# runs share one index; named headers (included or not) are analyzed.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"


# Findings of a JSON report, one canonical line each, sorted; optionally only
# those located in the given files.
findings() {
  python3 - "$@" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
keep = set(sys.argv[2:])
lines = sorted(json.dumps(f, sort_keys=True) for f in report["findings"]
               if not keep or f["file"] in keep or f["file"].split("/")[-1] in keep)
print("\n".join(lines))
PY
}
# The same for the results of a SARIF report (the rules and the rest of the
# run are the same in every report of one binary: compared whole below).
sarif_results() {
  python3 - "$@" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
keep = set(sys.argv[2:])
def uri(r): return r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
lines = sorted(json.dumps(r, sort_keys=True) for r in run["results"]
               if not keep or uri(r) in keep or uri(r).split("/")[-1] in keep)
print("\n".join(lines))
PY
}
sarif_rest() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; r.pop("results"); print(json.dumps(r, sort_keys=True))' "$1"
}
count() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$1"; }

# --- 1. named files == whole database, for each cross-TU test project ---------
for project in "$SRC"/testdata/checks/*-cross-tu; do
  name=$(basename "$project")
  P=$WORK/$name
  cp -r "$project" "$P"
  stub_database "$P"
  cd "$P" || exit 1
  "$STREAMLINT" -p . --no-cache --format json -o "$WORK/whole.json" 2>"$WORK/err"
  "$STREAMLINT" -p . --no-cache --format sarif -o "$WORK/whole.sarif" 2>"$WORK/err"
  [ "$(count "$WORK/whole.json")" -gt 0 ] || fail "$name: whole-database run found nothing"
  for f in "$P"/*.cu "$P"/*.cuh; do
    [ -e "$f" ] || continue
    base=$(basename "$f")
    # The file and the project headers it includes: what a named run covers.
    scope=("$base")
    for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do scope+=("$h"); done
    "$STREAMLINT" -p . --format json -o "$WORK/named.json" "$base" 2>"$WORK/err"
    code=$?
    case $code in 0|1) ;; *) fail "$name/$base: exit $code"; cat "$WORK/err" >&2 ;; esac
    if ! diff <(findings "$WORK/whole.json" "${scope[@]}") <(findings "$WORK/named.json") >"$WORK/diff"; then
      fail "$name/$base: named run differs from the whole-database run"; cat "$WORK/diff" >&2
    fi
    "$STREAMLINT" -p . --format sarif -o "$WORK/named.sarif" "$base" 2>"$WORK/err"
    if ! diff <(sarif_results "$WORK/whole.sarif" "${scope[@]}") <(sarif_results "$WORK/named.sarif") >"$WORK/diff"; then
      fail "$name/$base: named run differs from the whole-database run (SARIF)"; cat "$WORK/diff" >&2
    fi
    [ "$(sarif_rest "$WORK/whole.sarif")" = "$(sarif_rest "$WORK/named.sarif")" ] \
      || fail "$name/$base: SARIF tool/rules/invocations differ from the whole-database run's"
  done
done
# The issue's example: step.cu's cross-file alloc-in-loop findings without main.cu named.
cd "$WORK/alloc-in-loop-cross-tu" || exit 1
"$STREAMLINT" -p . --format json -o "$WORK/named.json" buffers.cu 2>/dev/null
grep -q '"alloc-in-loop"' "$WORK/named.json" || fail "buffers.cu alone lost its cross-file alloc-in-loop findings"
findings "$WORK/named.json" | grep -q '"main.cu' && fail "buffers.cu run reports findings in main.cu"

# --- 2. cold vs warm, invalidation ------------------------------------------
P=$WORK/inv
mkdir -p "$P"
cat >"$P/a.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void headerWork() { cudaStreamQuery(0); }
CU
cat >"$P/a.cu" <<'CU'
#include "a.cuh"
void stepA(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/b.cu" <<'CU'
#include <cuda_runtime.h>
void stepB(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/c.cu" <<'CU'
#include <cuda_runtime.h>
void stepC(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
stub_database "$P"
cd "$P" || exit 1
run() { "$STREAMLINT" -p . --format json -o "$WORK/$1.json" "${@:2}" 2>"$WORK/$1.err"; }
from_index() { grep -o '[0-9]* TU result(s) from the index' "$WORK/$1.err" | cut -d' ' -f1; }
expect_from_index() {
  local got; got=$(from_index "$1"); got=${got:-0}
  [ "$got" = "$2" ] || { fail "$3: $got TU(s) from the index, expected $2"; cat "$WORK/$1.err" >&2; }
}

run cold; expect_from_index cold 0 "cold run"
[ -d "$P/.streamlint/entries" ] || fail "no index beside compile_commands.json"
[ -f "$P/.streamlint/CACHEDIR.TAG" ] || fail "index lacks CACHEDIR.TAG"
run warm; expect_from_index warm 3 "warm run"
cmp -s "$WORK/cold.json" "$WORK/warm.json" || fail "warm report differs from cold"
"$STREAMLINT" -p . --use-color=false >"$WORK/warm.txt" 2>/dev/null
"$STREAMLINT" -p . --use-color=false --no-cache >"$WORK/cold.txt" 2>/dev/null
cmp -s "$WORK/cold.txt" "$WORK/warm.txt" || fail "warm text report differs from --no-cache"

# A header edit re-analyzes its includers only, and its new finding appears.
echo 'inline void headerSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }' >>a.cuh
run header; expect_from_index header 2 "after a header edit"
grep -q '"a.cuh"\|/a.cuh"' "$WORK/header.json" && [ "$(count "$WORK/header.json")" -gt "$(count "$WORK/cold.json")" ] \
  || fail "the header's new finding is missing after the edit"
# A flag change re-analyzes that TU only.
sed -i 's|-c '"$P"'/b.cu|-DCHANGED -c '"$P"'/b.cu|' compile_commands.json
run flags; expect_from_index flags 2 "after a flag change"
# A config change (check options) re-analyzes every TU it applies to.
printf "CheckOptions:\n  device-sync.SyncFunctions: 'mySync'\n" >.streamlint.yaml
if run config; then :; fi
if grep -q "unknown\|no option" "$WORK/config.err"; then
  printf "Checks: '*,-default-stream'\n" >.streamlint.yaml; run config
fi
expect_from_index config 0 "after a config change"
rm .streamlint.yaml
run unconfig; expect_from_index unconfig 3 "config removed: the earlier entries are still valid"
# The same binary elsewhere with another mtime (a CI job's `install: source`
# rebuilding the same sources) is the same tool (issue 22: the key holds the
# binary's build ID, not its path and mtime); another build ID is another tool.
cp -p "$STREAMLINT_BINARY" "$WORK/streamlint-copy" && touch -d '2001-01-01' "$WORK/streamlint-copy"
"$WORK/streamlint-copy" -p . --format json -o "$WORK/same.json" 2>"$WORK/same.err"
expect_from_index same 3 "with the same binary at another path and mtime"
if command -v readelf >/dev/null; then
  id=$(readelf -n "$STREAMLINT_BINARY" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
  python3 - "$WORK/streamlint-copy" "$id" <<'PY'
import sys
path, build_id = sys.argv[1], bytes.fromhex(sys.argv[2])
data = open(path, "rb").read()
assert data.count(build_id) == 1, "build ID not found once"
other = bytes([build_id[0] ^ 0xFF]) + build_id[1:]
open(path, "wb").write(data.replace(build_id, other))
PY
  "$WORK/streamlint-copy" -p . --format json -o "$WORK/tool.json" 2>"$WORK/tool.err"
  expect_from_index tool 0 "with another binary (another build ID)"
fi
# A deleted header: its includer is parsed again and fails; never stale results.
mv a.cuh a.cuh.away
run deleted; code=$?
[ "$code" = 3 ] || fail "deleted header: exit $code, expected 3"
grep -q "a.cuh" "$WORK/deleted.err" || fail "deleted header not reported"
expect_from_index deleted 2 "after a deleted header"
mv a.cuh.away a.cuh

# --- 3. damaged entries are ignored with a note and rebuilt ------------------
rm -rf .streamlint
run reference
entries=$(find .streamlint/entries -name '*.json' | sort)
set -- $entries
head -c 100 "$1" >"$WORK/t" && cat "$WORK/t" >"$1"                # truncated
echo 'not json' >"$2"                                               # garbage
sed -i 's/streamlint-index-entry-3/streamlint-index-entry-0/' "$3"  # other version
run damaged
cmp -s "$WORK/reference.json" "$WORK/damaged.json" || fail "report with damaged entries differs"
# None of them carries a valid seal any more (docs/index.md, "What the index
# trusts"): counted in one note.
grep -q '3 index entries in .* ignored and rebuilt' "$WORK/damaged.err" \
  || { fail "damaged entries not noted"; cat "$WORK/damaged.err" >&2; }
run repaired
grep -q "damaged" "$WORK/repaired.err" && fail "damaged entries were not rebuilt"
cmp -s "$WORK/reference.json" "$WORK/repaired.json" || fail "report after repair differs"

# --- 4. concurrent runs on one index ----------------------------------------
rm -rf .streamlint
for i in 1 2 3 4; do
  "$STREAMLINT" -p . -j 1 --format json -o "$WORK/par$i.json" 2>"$WORK/par$i.err" &
done
wait
for i in 1 2 3 4; do
  cmp -s "$WORK/reference.json" "$WORK/par$i.json" || fail "concurrent run $i differs"
done
run afterpar; expect_from_index afterpar 3 "after concurrent runs"
grep -q "damaged" "$WORK/afterpar.err" && fail "concurrent runs damaged the index"
cmp -s "$WORK/reference.json" "$WORK/afterpar.json" || fail "report after concurrent runs differs"
ls .streamlint/entries/*/.*.streamlint-* >/dev/null 2>&1 && fail "temporary files left in the index"

# --- 5. --no-cache, STREAMLINT_CACHE_DIR, --cache-dir -------------------------
rm -rf .streamlint
run nocache --no-cache
[ -e .streamlint ] && fail "--no-cache wrote an index"
STREAMLINT_CACHE_DIR=$WORK/envcache run env
[ -d "$WORK/envcache/entries" ] || fail "STREAMLINT_CACHE_DIR not used"
run flag --cache-dir "$WORK/flagcache"
[ -d "$WORK/flagcache/entries" ] || fail "--cache-dir not used"
[ -e .streamlint ] && fail "an explicit cache directory still wrote beside the database"

# --- 6. named headers ---------------------------------------------------------
run hdr a.cuh; code=$?
[ "$code" = 1 ] || fail "named header: exit $code, expected 1"
python3 - "$WORK/hdr.json" <<'PY' || fail "named header: findings outside a.cuh or none"
import json, sys
files = {f["file"].split("/")[-1] for f in json.load(open(sys.argv[1]))["findings"]}
sys.exit(0 if files == {"a.cuh"} else 1)
PY
diff <(findings "$WORK/reference.json" a.cuh) <(findings "$WORK/hdr.json") >/dev/null \
  || fail "named header's findings differ from the whole-database run's"
cat >orphan.cuh <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void orphanSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
run orphan orphan.cuh b.cu; code=$?
[ "$code" = 1 ] || fail "orphan header: exit $code, expected 1"
grep -q "orphan.cuh: no translation unit of the compile database includes it; analyzed with the command of" "$WORK/orphan.err" \
  || fail "orphan header: no interpolation note: $(cat "$WORK/orphan.err")"
grep -q 'orphan.cuh' "$WORK/orphan.json" || fail "orphan header's finding missing"
grep -q '/b.cu"' "$WORK/orphan.json" || fail "b.cu named with the header lost its findings"
cp b.cu new.cu
run newsrc new.cu; code=$?
[ "$code" = 1 ] || fail "new source: exit $code, expected 1"
grep -q "new.cu: no entry in the compile database; analyzed with the command of" "$WORK/newsrc.err" \
  || fail "new source: no interpolation note"
run missing nothere.cuh; code=$?
[ "$code" = 2 ] || fail "missing file: exit $code, expected 2"
grep -q "nothere.cuh: no entry for this file in the compile database .*, and no such file" "$WORK/missing.err" || fail "missing file: no error"

# --- 7. compile errors are kept: recoverable ones, and a missing include with
# every place clang looked for it; the include appearing in one of them (here:
# beside its includer) makes the TU be parsed again --------------------------
P=$WORK/errors
mkdir -p "$P"
printf '#include <cuda_runtime.h>\nvoid f(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); not_declared(); }\n' >"$P/bad.cu"
printf '#include <cuda_runtime.h>\n#include "missing.cuh"\n' >"$P/fatal.cu"
stub_database "$P"
cd "$P" || exit 1
run errcold; code=$?
[ "$code" = 3 ] || fail "compile errors: exit $code, expected 3"
run errwarm; code=$?
[ "$code" = 3 ] || fail "compile errors, warm: exit $code, expected 3"
expect_from_index errwarm 2 "recoverable errors and a missing include kept"
grep -q "not_declared" "$WORK/errwarm.err" || fail "the kept TU's compile error is not reported"
grep -q "missing.cuh" "$WORK/errwarm.err" || fail "the fatal error is not reported"
cmp -s "$WORK/errcold.json" "$WORK/errwarm.json" || fail "warm report with compile errors differs"
printf '#pragma once\n' >missing.cuh
run errfixed; expect_from_index errfixed 1 "the header that was missing now exists"
grep -q "missing.cuh" "$WORK/errfixed.err" && fail "a stale fatal error was reported"
# The same through a -I directory: the TU's entry lists it among the places looked in.
rm missing.cuh
mkdir -p inc
sed -i 's| -c '"$P"'/fatal.cu| -I'"$P"'/inc -c '"$P"'/fatal.cu|' compile_commands.json
run errinc; code=$?
[ "$code" = 3 ] || fail "missing include again: exit $code, expected 3"
run errincwarm; expect_from_index errincwarm 2 "missing include with -I, warm"
grep -q "missing.cuh' file not found" "$WORK/errincwarm.err" || fail "the kept missing include is not reported"
printf '#pragma once\n' >inc/missing.cuh
run errincfixed; expect_from_index errincfixed 1 "the missing include appeared in the -I directory"
grep -q "missing.cuh" "$WORK/errincfixed.err" && fail "a stale missing include was reported after it appeared in -I"
finish
