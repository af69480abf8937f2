#!/usr/bin/env bash
# Preambles (docs/index.md, "Preambles") end to end: each TU's include
# prefix is parsed once into a preamble kept beside the project index and
# reused while it is unchanged. Each case asserts, from the summary line,
# whether a preamble was reused or built, and that the report is
# byte-identical to a run with no index at all: an edit of the body (reused),
# a header of the prefix edited, a macro defined before an include, a flag
# changed, an include added to the prefix (each rebuilt), two TUs with the
# same prefix and different -D, a damaged PCH and a damaged manifest
# (rebuilt, with a note), --no-preambles, and the size limit.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
P=$WORK/project
INDEX=$WORK/index
mkdir -p "$P"

cat >"$P/lib.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
__global__ void libKernel(float *p);
inline void libLaunch(float *p) { libKernel<<<1, 1>>>(p); }
#ifdef EXTRA
inline void extraLaunch(float *p) { libKernel<<<2, 1>>>(p); }
#endif
CU
cat >"$P/a.cu" <<'CU'
#include <cuda_runtime.h>
#include "lib.cuh"

__global__ void fill(float *p) { p[0] = 1; }

void launchA(float *p) {
  fill<<<1, 1>>>(p);
}
CU
# b.cu and c.cu: the same prefix; the database gives c.cu -DEXTRA.
for name in b c; do
  cat >"$P/$name.cu" <<'CU'
#include <cuda_runtime.h>
#include "lib.cuh"

void launch(float *p) {
  libLaunch(p);
#ifdef EXTRA
  extraLaunch(p);
#endif
}
CU
done

# database A_EXTRA: every TU's command; A_EXTRA is added to a.cu's.
database() {
  python3 - "$P" "$FLAGS" "${1:-}" >"$P/compile_commands.json" <<'PY'
import json, sys
p, flags, extra = sys.argv[1:]
def entry(name, more):
    f = f"{p}/{name}.cu"
    return {"directory": p, "file": f, "command": f"clang++ {flags} {more} -c {f}"}
print(json.dumps([entry("a", extra), entry("b", ""), entry("c", "-DEXTRA")]))
PY
}

# run LABEL [options]: the report with the index (out.json) against the
# report with none (ref.json); they must be byte-identical.
run() {
  local label=$1; shift
  (cd "$P" && "$STREAMLINT" -p . --cache-dir "$INDEX" --preambles --format json \
     -o "$WORK/out.json" "$@" 2>"$WORK/err")
  cp "$WORK/err" "$WORK/err.$label"
  (cd "$P" && "$STREAMLINT" -p . --no-cache --format json -o "$WORK/ref.json" 2>/dev/null)
  cmp -s "$WORK/out.json" "$WORK/ref.json" ||
    fail "$label: the report differs from a run without the index: $(diff "$WORK/out.json" "$WORK/ref.json" | head -5)"
}
# expect_preambles LABEL REUSED BUILT: what the summary of the last run said.
expect_preambles() {
  grep -qF "preambles: $2 reused, $3 built" "$WORK/err" ||
    fail "$1: expected 'preambles: $2 reused, $3 built' in: $(grep 'translation unit' "$WORK/err")"
}
findings_in() { python3 -c 'import json,sys; print(sum(1 for f in json.load(open(sys.argv[1]))["findings"] if f["file"].endswith(sys.argv[2])))' "$WORK/out.json" "$1"; }

database
run cold
expect_preambles cold 0 3
ls "$INDEX"/preambles/*.pch >/dev/null 2>&1 || fail "cold: no preamble stored in $INDEX/preambles"
[ "$(findings_in a.cu)" -gt 0 ] || fail "cold: no finding in a.cu"
[ "$(findings_in lib.cuh)" -gt 0 ] || fail "cold: no finding in lib.cuh"

run warm
grep -qF "3 TU result(s) from the index; 0 parsed" "$WORK/err" || fail "warm: $(cat "$WORK/err")"

# A line of the body edited: only a.cu is parsed, on its stored preamble.
sed -i 's/fill<<<1, 1>>>(p);/fill<<<1, 1>>>(p);\n  fill<<<3, 1>>>(p);/' "$P/a.cu"
run body_edit
expect_preambles body_edit 1 0
grep -qF "2 TU result(s) from the index; 1 parsed" "$WORK/err" || fail "body_edit: $(cat "$WORK/err")"

# A header of the prefix edited: every TU parsed again, every preamble rebuilt.
sed -i 's/libKernel<<<1, 1>>>(p);/libKernel<<<1, 1>>>(p);\n  libKernel<<<4, 1>>>(p);/' "$P/lib.cuh"
sed -i 's/^inline void libLaunch(float \*p) { \(.*\)$/inline void libLaunch(float *p) {\n  \1/' "$P/lib.cuh"
run header_edit
expect_preambles header_edit 0 3

# A macro defined before an include: a.cu's prefix changes (and lib.cuh
# declares extraLaunch for it).
sed -i '1i #define EXTRA 1' "$P/a.cu"
run macro_before_include
expect_preambles macro_before_include 0 1
sed -i '1d' "$P/a.cu"
run macro_removed
expect_preambles macro_removed 1 0

# A flag changed: a.cu's command gains -DEXTRA.
database -DEXTRA
run flag_changed
expect_preambles flag_changed 0 1
database
echo "// edited" >>"$P/a.cu"
run flag_restored
expect_preambles flag_restored 1 0

# An include added to the prefix.
sed -i '2i #include <cstddef>' "$P/a.cu"
run include_added
expect_preambles include_added 0 1

# b.cu and c.cu share a prefix but not their -D: each parses on its own
# preamble, and c.cu (-DEXTRA) reports extraLaunch's launch.
echo "// edited" >>"$P/b.cu"
echo "// edited" >>"$P/c.cu"
run shared_prefix_other_defines
expect_preambles shared_prefix_other_defines 2 0
python3 - "$WORK/out.json" <<'PY' || fail "shared prefix: the -DEXTRA TU's finding in extraLaunch is missing"
import json, sys
lines = [f["line"] for f in json.load(open(sys.argv[1]))["findings"] if f["file"].endswith("lib.cuh")]
sys.exit(0 if any(l >= 7 for l in lines) else 1)
PY

# A damaged PCH: noted, rebuilt, the report unchanged.
for pch in "$INDEX"/preambles/*.pch; do
  printf 'garbage' | dd of="$pch" bs=1 seek=100 conv=notrunc 2>/dev/null
done
echo "// edited again" >>"$P/a.cu"
run damaged_pch
expect_preambles damaged_pch 0 1
grep -q "ignoring a damaged preamble (it is rebuilt)" "$WORK/err" || fail "damaged_pch: no note: $(cat "$WORK/err")"

# A damaged manifest: the same.
for manifest in "$INDEX"/preambles/*.manifest; do
  head -c 40 "$manifest" >"$manifest.tmp" && mv "$manifest.tmp" "$manifest"
done
echo "// and again" >>"$P/a.cu"
run damaged_manifest
expect_preambles damaged_manifest 0 1
grep -q "ignoring a damaged or unauthenticated preamble" "$WORK/err" || fail "damaged_manifest: no note: $(cat "$WORK/err")"

# --no-preambles (or no --preambles): parsed whole; nothing said about preambles.
echo "// once more" >>"$P/a.cu"
run no_preambles --no-preambles
grep -q "preambles:" "$WORK/err" && fail "no_preambles: $(cat "$WORK/err")"

# The size limit: at 1 MiB, no more than about that stays (the newest is kept).
rm -rf "$INDEX"
run limited --preamble-cache-size=1
used=$(du -sk "$INDEX/preambles" | cut -f1)
biggest=$(ls -s "$INDEX"/preambles/*.pch | sort -n | tail -1 | awk '{print $1}')
[ "$used" -le $((1024 + biggest + 8)) ] || fail "limited: $used KiB of preambles kept"

finish
