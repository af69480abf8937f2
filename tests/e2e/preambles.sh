#!/usr/bin/env bash
# Preambles (docs/index.md, "Preambles") end to end: each TU's include
# prefix is parsed once into a preamble kept beside the project index and
# reused while it is unchanged. Each case asserts, from the summary line,
# whether a preamble was reused, built or deferred (a prefix no other TU
# shares is built on its TU's second analysis), and that the report is
# byte-identical to a run with no index at all: an edit of the body (reused),
# a header of the prefix edited, a macro defined before an include, a flag
# changed, an include added to the prefix (each rebuilt), two TUs with the
# same prefix and different -D, a damaged PCH and a damaged manifest
# (rebuilt, with a note), --no-preambles, and the size limit. TUs of one
# directory whose prefix and command (but for the file) agree share one
# preamble: a.cu and b.cu here; a macro of a shared prefix expanded in each
# body, and a quoted include of the same text in another directory (another
# header, so not shared); scratch PCHs left by a killed run are removed.
# TUs whose prefixes begin with the same #includes but differ in comments
# and in what follows share a preamble of those #includes.
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
# a.cu and b.cu have the same prefix and command: one preamble for both.
# c.cu (-DEXTRA) shares its prefix with no TU: on its first analysis it is
# parsed whole, its preamble deferred to its next.
expect_preambles cold 1 1
grep -qF ", 1 deferred" "$WORK/err" || fail "cold: c.cu's preamble not deferred: $(cat "$WORK/err")"
[ "$(ls "$INDEX"/preambles/*.pch | wc -l)" -eq 1 ] || fail "cold: expected 1 preamble for 3 TUs (a.cu and b.cu share one, c.cu's deferred): $(ls "$INDEX"/preambles)"
[ "$(findings_in a.cu)" -gt 0 ] || fail "cold: no finding in a.cu"
[ "$(findings_in lib.cuh)" -gt 0 ] || fail "cold: no finding in lib.cuh"

run warm
grep -qF "3 TU result(s) from the index; 0 parsed" "$WORK/err" || fail "warm: $(cat "$WORK/err")"

# A line of the body edited: only a.cu is parsed, on its stored preamble.
sed -i 's/fill<<<1, 1>>>(p);/fill<<<1, 1>>>(p);\n  fill<<<3, 1>>>(p);/' "$P/a.cu"
run body_edit
expect_preambles body_edit 1 0
grep -qF "2 TU result(s) from the index; 1 parsed" "$WORK/err" || fail "body_edit: $(cat "$WORK/err")"

# c.cu edited: analyzed again, so its own preamble is built now.
echo "// edited" >>"$P/c.cu"
run deferred_built
expect_preambles deferred_built 0 1
grep -qF "deferred" "$WORK/err" && fail "deferred_built: $(cat "$WORK/err")"

# A header of the prefix edited: every TU parsed again, every preamble rebuilt.
sed -i 's/libKernel<<<1, 1>>>(p);/libKernel<<<1, 1>>>(p);\n  libKernel<<<4, 1>>>(p);/' "$P/lib.cuh"
sed -i 's/^inline void libLaunch(float \*p) { \(.*\)$/inline void libLaunch(float *p) {\n  \1/' "$P/lib.cuh"
run header_edit
expect_preambles header_edit 1 2

# A macro defined before an include: a.cu's prefix changes (and lib.cuh
# declares extraLaunch for it).
sed -i '1i #define EXTRA 1' "$P/a.cu"
run macro_before_include
expect_preambles macro_before_include 0 1
sed -i '1d' "$P/a.cu"
run macro_removed
expect_preambles macro_removed 1 0

# A flag changed: a.cu's command gains -DEXTRA -DFLAG_CHANGED (with -DEXTRA
# alone it would share c.cu's preamble: the same prefix and command).
# A new command is a first analysis: parsed whole, its preamble deferred;
# edited, it builds one (the old one is not reused).
database "-DEXTRA -DFLAG_CHANGED"
run flag_changed
expect_preambles flag_changed 0 0
grep -qF ", 1 deferred" "$WORK/err" || fail "flag_changed: $(cat "$WORK/err")"
echo "// edited" >>"$P/a.cu"
run flag_changed_edit
expect_preambles flag_changed_edit 0 1
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

# Shared prefixes with a macro expanded in each body, and the same quoted
# include text in another directory naming another header.
P=$WORK/shared
INDEX=$WORK/shared-index
mkdir -p "$P/sub"
for name in x y; do
  cat >"$P/$name.cu" <<CU
#include <cuda_runtime.h>
#include "lib.cuh"
#define LAUNCH(k, p) k<<<1, 1>>>(p)

__global__ void fill_$name(float *p) { p[0] = 1; }

void launch_$name(float *p) {
  LAUNCH(fill_$name, p);
  libLaunch(p);
}
CU
done
sed 's/_x/_z/g' "$P/x.cu" >"$P/sub/z.cu"
cat >"$P/lib.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
__global__ void libKernel(float *p);
inline void libLaunch(float *p) { libKernel<<<1, 1>>>(p); }
CU
cat >"$P/sub/lib.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
__global__ void libKernel(float *p);
inline void libLaunch(float *p) { cudaDeviceSynchronize(); }
CU
python3 - "$P" "$FLAGS" >"$P/compile_commands.json" <<'PY'
import json, sys
p, flags = sys.argv[1:]
print(json.dumps([{"directory": p, "file": f"{p}/{n}.cu", "command": f"clang++ {flags} -c {p}/{n}.cu"}
                  for n in ("x", "y", "sub/z")]))
PY
# Scratch PCHs: one of a process that is gone, one a day old, one being
# written by a live process (this shell), fresh: only the last is kept.
mkdir -p "$INDEX/preambles"
K=$(printf '%064d' 0)
touch "$INDEX/preambles/$K.pch.tmp-999999999-0" "$INDEX/preambles/$K.pch.tmp-$$-1" \
      "$INDEX/preambles/$K.pch.tmp-$$-2"
touch -d '2 days ago' "$INDEX/preambles/$K.pch.tmp-$$-1"
run shared_macro
expect_preambles shared_macro 1 1
grep -qF ", 1 deferred" "$WORK/err" || fail "shared_macro: sub/z.cu's preamble not deferred: $(cat "$WORK/err")"
[ "$(findings_in sub/lib.cuh)" -gt 0 ] || fail "shared_macro: sub/z.cu did not read its own lib.cuh"
for name in x.cu y.cu sub/z.cu; do
  [ "$(findings_in "shared/$name")" -gt 0 ] || fail "shared_macro: no finding in $name"
done
[ -e "$INDEX/preambles/$K.pch.tmp-999999999-0" ] && fail "a dead run's scratch PCH was kept"
[ -e "$INDEX/preambles/$K.pch.tmp-$$-1" ] && fail "a day-old scratch PCH was kept"
[ -e "$INDEX/preambles/$K.pch.tmp-$$-2" ] || fail "a live run's scratch PCH was removed"
# A body edit of y.cu: parsed on the preamble x.cu built.
echo "// edited" >>"$P/y.cu"
run shared_body_edit
expect_preambles shared_body_edit 1 0

# TUs whose prefixes differ in their comments and in what follows their
# common #includes share one preamble of those #includes alone; each parses
# the rest of its prefix with its body. The reports, lines included, are
# byte-identical to a run without preambles (run compares them).
P=$WORK/directives
INDEX=$WORK/directives-index
mkdir -p "$P"
cat >"$P/common.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
#define COMMON_LAUNCH(k, p) k<<<1, 1>>>(p)
__global__ void commonKernel(float *p);
inline void commonLaunch(float *p) { commonKernel<<<1, 1>>>(p); }
CU
cat >"$P/extra.cuh" <<'CU'
#pragma once
inline void extraSync() { cudaDeviceSynchronize(); }
CU
cat >"$P/u.cu" <<'CU'
// u.cu: a file comment of one line.
#include <cuda_runtime.h>
#include "common.cuh"  // the shared kernels
#include "extra.cuh"
#define BLOCK 256

__global__ void fill_u(float *p) { p[0] = BLOCK; }
void launch_u(float *p) {
  COMMON_LAUNCH(fill_u, p);
  commonLaunch(p);
  extraSync();
}
CU
cat >"$P/v.cu" <<'CU'
/*
 * v.cu: a longer file comment,
 * over several lines.
 */

#include <cuda_runtime.h>
#include "common.cuh"
#define BLOCK 128
#include <cstddef>

__global__ void fill_v(float *p) { p[0] = BLOCK; }
void launch_v(float *p) {
  COMMON_LAUNCH(fill_v, p);
}
CU
python3 - "$P" "$FLAGS" >"$P/compile_commands.json" <<'PY'
import json, sys
p, flags = sys.argv[1:]
print(json.dumps([{"directory": p, "file": f"{p}/{n}.cu", "command": f"clang++ {flags} -c {p}/{n}.cu"}
                  for n in ("u", "v")]))
PY
run shared_directives
expect_preambles shared_directives 1 1
[ "$(ls "$INDEX"/preambles/*.pch | wc -l)" -eq 1 ] || fail "shared_directives: expected 1 preamble for u.cu and v.cu: $(ls "$INDEX"/preambles)"
for name in u.cu v.cu common.cuh extra.cuh; do
  [ "$(findings_in "directives/$name")" -gt 0 ] || fail "shared_directives: no finding in $name"
done
# What follows the shared #includes, edited: parsed with the body, on the
# same preamble; so is another file comment.
sed -i 's/#define BLOCK 256/#define BLOCK 512/' "$P/u.cu"
sed -i 's/over several lines./over several lines, and one more\n * line./' "$P/v.cu"
run shared_directives_tail_edit
expect_preambles shared_directives_tail_edit 2 0
# A shared header edited: one preamble rebuilt for both.
echo 'inline void commonSync() { cudaDeviceSynchronize(); }' >>"$P/common.cuh"
run shared_directives_header_edit
expect_preambles shared_directives_header_edit 1 1
# v.cu includes another header first: it shares nothing now, and parses
# on its own prefix's preamble (u.cu, unchanged, comes from the index).
sed -i 's|^#include <cuda_runtime.h>$|#include <cstdint>\n#include <cuda_runtime.h>|' "$P/v.cu"
run shared_directives_diverged
expect_preambles shared_directives_diverged 0 1

# Which run TUs share follows from what the runs cost (tokens preprocessed):
# a.cu and b.cu include first.h then second.h, c.cu first.h then third.h.
# With first.h heavy, one preamble of it serves all three; with second.h
# heavy, a.cu and b.cu share both headers and c.cu, alone, is deferred.
P=$WORK/costs
mkdir -p "$P"
heavy() { python3 -c 'import sys; print("".join(f"inline int {sys.argv[1]}_{i}(int x) {{ return x + {i}; }}\n" for i in range(4000)))' "$1"; }
light() { echo "inline int $1_0(int x) { return x; }"; }
for name in a b c; do
  header=second; [ "$name" = c ] && header=third
  printf '#include "first.h"\n#include "%s.h"\n\nint use_%s() { return first_0(1); }\n' "$header" "$name" >"$P/$name.cu"
done
python3 - "$P" "$FLAGS" >"$P/compile_commands.json" <<'PY'
import json, sys
p, flags = sys.argv[1:]
print(json.dumps([{"directory": p, "file": f"{p}/{n}.cu", "command": f"clang++ {flags} -c {p}/{n}.cu"}
                  for n in ("a", "b", "c")]))
PY
heavy first >"$P/first.h"; light second >"$P/second.h"; light third >"$P/third.h"
INDEX=$WORK/costs-index-first
run costs_first_heavy
expect_preambles costs_first_heavy 2 1
[ "$(ls "$INDEX"/preamble-costs | wc -l)" -ge 1 ] || fail "costs_first_heavy: no measured run kept"
light first >"$P/first.h"; heavy second >"$P/second.h"
INDEX=$WORK/costs-index-second
run costs_second_heavy
expect_preambles costs_second_heavy 1 1
grep -qF ", 1 deferred" "$WORK/err" || fail "costs_second_heavy: c.cu not on its own: $(cat "$WORK/err")"

# The manifest says whether a library template the preamble instantiated
# names the project's code (then pointer provenance reads the library's
# declarations where the prefix declares something file-local).
P=$WORK/names
mkdir -p "$P/sys"
cat >"$P/sys/apply.h" <<'CU'
#pragma once
template <class F> void applyTo(F f, float *p) { f(p); }
CU
cat >"$P/plain.cuh" <<'CU'
#pragma once
#include <apply.h>
inline void plainFill(float *p) { p[0] = 1; }
CU
cat >"$P/named.cuh" <<'CU'
#pragma once
#include <apply.h>
struct Filler { void operator()(float *p) const { p[0] = 2; } };
inline void namedFill(float *p) { applyTo(Filler{}, p); }
CU
for header in plain named; do
  for n in 1 2; do
    printf '#include "%s.cuh"\n\nvoid run_%s_%s(float *p) { %sFill(p); }\n' "$header" "$header" "$n" "$header" >"$P/${header}_$n.cu"
  done
done
python3 - "$P" "$FLAGS -isystem $P/sys" >"$P/compile_commands.json" <<'PY'
import json, sys
p, flags = sys.argv[1:]
print(json.dumps([{"directory": p, "file": f"{p}/{n}.cu", "command": f"clang++ {flags} -c {p}/{n}.cu"}
                  for n in ("plain_1", "plain_2", "named_1", "named_2")]))
PY
INDEX=$WORK/names-index
run names_project
expect_preambles names_project 2 2
[ "$(grep -l 'instantiations-name-project 1' "$INDEX"/preambles/*.manifest | wc -l)" -eq 1 ] ||
  fail "names_project: expected one preamble whose library instantiations name the project: $(grep -h instantiations-name "$INDEX"/preambles/*.manifest)"
[ "$(grep -l 'instantiations-name-project 0' "$INDEX"/preambles/*.manifest | wc -l)" -eq 1 ] ||
  fail "names_project: expected one preamble whose library instantiations name none of it"

finish
