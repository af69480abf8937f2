#!/usr/bin/env bash
# --fix as a user's tree sees it (issue 13): two runs at once, symbolic links
# (file and directory), a read-only file, a file edited between analysis and
# write, a run from another directory, the
# summary line and exit status 4 when a fix is skipped. Uses the stub CUDA
# header, so it needs no toolkit.
. "$(dirname "$0")/lib.sh"
STUB="$SRC/testdata/stub"

# One file with one safe default-stream fix: nothing pending on entry, the
# launch moves to the blocking stream s, which is synchronized before return.
source_file() {
  cat <<CU
#include <cuda_runtime.h>
__global__ void k(float *d) {}
void f$1(float *d) {
  cudaDeviceSynchronize();
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 1, 0, s>>>(d);
  k<<<1, 1>>>(d);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}
CU
}
FIXED_LINE='  k<<<1, 1, 0, s>>>(d);'

# compile_db DIR FILE... : a clang compile database using the stub header.
compile_db() {
  local dir=$1; shift
  { echo "["; local sep=""
    for f in "$@"; do
      printf '%s{"directory": "%s", "file": "%s", "arguments": ["clang++", "-x", "cuda", "-std=c++17", "-nocudainc", "-nocudalib", "-isystem", "%s", "-c", "%s"]}\n' \
        "$sep" "$dir" "$f" "$STUB" "$f"
      sep=","
    done; echo "]"; } >"$dir/compile_commands.json"
}

# --- two --fix runs at once on a 12-file tree: each edit exactly once -----
mkdir -p "$WORK/tree/src"
files=()
for i in $(seq 1 12); do
  source_file "$i" >"$WORK/tree/src/f$i.cu"
  files+=("$WORK/tree/src/f$i.cu")
done
git -C "$WORK/tree" init -q 2>/dev/null || mkdir "$WORK/tree/.git"
compile_db "$WORK/tree" "${files[@]}"
( cd "$WORK/tree" && "$STREAMLINT" -p . -j1 --fix --quiet >"$WORK/run1.out" 2>"$WORK/run1.err"; echo $? >"$WORK/run1.rc" ) &
( cd "$WORK/tree" && "$STREAMLINT" -p . -j1 --fix --quiet >"$WORK/run2.out" 2>"$WORK/run2.err"; echo $? >"$WORK/run2.rc" ) &
wait
for i in $(seq 1 12); do
  f="$WORK/tree/src/f$i.cu"
  n=$(grep -cF -- "$FIXED_LINE" "$f")
  [ "$n" = 2 ] || fail "f$i.cu: the launch line appears $n times, expected 2 (fixed once)"
  grep -q ', 0, s, 0, s' "$f" && fail "f$i.cu: an edit was applied twice"
done
# Every fixed file still parses, and nothing is left to fix.
( cd "$WORK/tree" && "$STREAMLINT" -p . --fix-dry-run >"$WORK/again.out" 2>"$WORK/again.err" )
rc=$?
[ "$rc" = 0 ] || fail "re-analysis of the fixed tree: exit $rc (3 = a file no longer compiles)"
grep -q "could not be analyzed" "$WORK/again.err" && fail "a fixed file no longer compiles"
grep -qF "would apply 0 fix(es)" "$WORK/again.err" || fail "fixes left after both runs: $(cat "$WORK/again.err")"
# Together the two runs applied 12 fixes; whatever one run skipped, it said
# why and exited 4.
applied=0
for r in 1 2; do
  n=$(sed -n 's/.*applied \([0-9]*\) fix(es).*/\1/p' "$WORK/run$r.err")
  applied=$((applied + ${n:-0}))
  if grep -q "skipped" "$WORK/run$r.err"; then
    [ "$(cat "$WORK/run$r.rc")" = 4 ] || fail "run $r skipped fixes but exited $(cat "$WORK/run$r.rc")"
    grep -q "changed since analysis" "$WORK/run$r.err" || fail "run $r: skip reason missing: $(cat "$WORK/run$r.err")"
  fi
done
[ "$applied" = 12 ] || fail "the two runs applied $applied fixes in all, expected 12"

# --- symbolic links: a linked file and a linked directory ----------------
mkdir -p "$WORK/links/real" "$WORK/links/src" "$WORK/vendor"
source_file 1 >"$WORK/links/real/a.cu"
source_file 2 >"$WORK/vendor/b.cu"
ln -s ../../vendor/b.cu "$WORK/links/src/b.cu"  # outside the tree (Bazel execroot)
ln -s real "$WORK/links/dir"
mkdir "$WORK/links/.git"
compile_db "$WORK/links" "$WORK/links/dir/a.cu" "$WORK/links/src/b.cu"
cd "$WORK/links" || exit 1
expect_exit 1 "--fix through links" -- "$STREAMLINT" -p . --fix
expect_stderr "applied 2 fix(es) in 2 file(s)"
[ -L "$WORK/links/src/b.cu" ] || fail "the linked source was replaced by a file"
[ -L "$WORK/links/dir" ] || fail "the linked directory was replaced"
grep -qF -- "$FIXED_LINE" "$WORK/vendor/b.cu" && [ "$(grep -cF -- "$FIXED_LINE" "$WORK/vendor/b.cu")" = 2 ] \
  || fail "the link's target was not fixed"
[ "$(grep -cF -- "$FIXED_LINE" "$WORK/links/real/a.cu")" = 2 ] || fail "the file in the linked directory was not fixed"

# --- a read-only file: left alone, reported, exit 4 ----------------------
mkdir -p "$WORK/ro/.git"
source_file 1 >"$WORK/ro/a.cu"
source_file 2 >"$WORK/ro/b.cu"
chmod 0444 "$WORK/ro/a.cu"
cp "$WORK/ro/a.cu" "$WORK/ro.orig"
compile_db "$WORK/ro" "$WORK/ro/a.cu" "$WORK/ro/b.cu"
cd "$WORK/ro" || exit 1
expect_exit 4 "--fix with a read-only file" -- "$STREAMLINT" -p . --fix
expect_stderr "a.cu is read-only (mode 0444); left alone"
expect_stderr "applied 1 fix(es) in 1 file(s); 1 skipped (1 read-only)"
cmp -s "$WORK/ro/a.cu" "$WORK/ro.orig" || fail "the read-only file was changed"
[ "$(stat -c %a "$WORK/ro/a.cu")" = 444 ] || fail "the read-only file's mode changed"

# --- a file edited between analysis and write: left alone, exit 4 --------
# The TU includes a named pipe: clang has read a.cu and waits on the pipe
# while this script edits a.cu, then lets it go on. The fix was planned for
# the bytes clang read; the file holds others when the fix is written.
mkdir -p "$WORK/edited/.git"
{ echo '#include "gate.h"'; source_file 1; } >"$WORK/edited/a.cu"
mkfifo "$WORK/edited/gate.h"
compile_db "$WORK/edited" "$WORK/edited/a.cu"
cd "$WORK/edited" || exit 1
timeout 120 "$STREAMLINT" -p . --no-cache --fix a.cu >"$WORK/edited.out" 2>"$WORK/edited.err" &
run=$!
# Opening the pipe for writing returns once clang opened it to read, that is
# after it read a.cu.
timeout 60 bash -c 'exec 3>gate.h; echo "// saved by an editor meanwhile" >>a.cu; echo "// gate" >&3' \
  || fail "the analysis never opened the included pipe"
wait "$run"; status=$?
[ "$status" = 4 ] || fail "edited between analysis and write: exit $status, want 4: $(cat "$WORK/edited.err")"
grep -q "a.cu changed since it was analyzed (its content hash differs); left alone" "$WORK/edited.err" \
  || fail "the skip is not reported: $(cat "$WORK/edited.err")"
grep -q "1 skipped (1 changed since analysis)" "$WORK/edited.err" || fail "summary: $(cat "$WORK/edited.err")"
grep -qF -- "$FIXED_LINE" "$WORK/edited/a.cu" && [ "$(grep -cF -- "$FIXED_LINE" "$WORK/edited/a.cu")" != 1 ] \
  && fail "the edited file was fixed anyway"
[ "$(tail -1 "$WORK/edited/a.cu")" = "// saved by an editor meanwhile" ] || fail "the editor's change was lost"

# --- CRLF line endings: the lines a fix inserts end with CRLF too --------
mkdir -p "$WORK/crlf"
cat >"$WORK/crlf/a.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void k(float *d) {}
void f(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    float *h = (float *)malloc(64);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    free(h);
  }
}
CU
sed -i 's/$/\r/' "$WORK/crlf/a.cu"
compile_db "$WORK/crlf" "$WORK/crlf/a.cu"
cd "$WORK/crlf" || exit 1
"$STREAMLINT" -p . --no-cache --fix >/dev/null 2>"$WORK/crlf.err"
cmp -s a.cu <(printf '') && fail "CRLF: the file was emptied"
grep -q 'applied [1-9]' "$WORK/crlf.err" || fail "CRLF: no fix applied: $(cat "$WORK/crlf.err")"
lf_only=$(grep -c $'[^\r]$' a.cu)
[ "$lf_only" = 0 ] || fail "CRLF: $lf_only line(s) of the fixed file end with LF alone: $(grep -n $'[^\r]$' a.cu | head -3)"

# --- hard links: never split silently ------------------------------------
mkdir -p "$WORK/linked"
source_file 1 >"$WORK/linked/a.cu"
ln "$WORK/linked/a.cu" "$WORK/linked/other-name.cu"
compile_db "$WORK/linked" "$WORK/linked/a.cu"
cd "$WORK/linked" || exit 1
expect_exit 4 "--fix on a hard-linked file" -- "$STREAMLINT" -p . --no-cache --fix
expect_stderr "a.cu has 2 hard links: replacing it would leave the other names with the old text; left alone"
expect_stderr "1 skipped (1 hard-linked)"
[ "$(stat -c %h a.cu)" = 2 ] || fail "the hard link was split"
cmp -s a.cu other-name.cu || fail "the two names differ"

# --- run from another directory: the fix root is the project -------------
mkdir -p "$WORK/proj/src" "$WORK/proj/.git" "$WORK/elsewhere"
source_file 1 >"$WORK/proj/src/a.cu"
compile_db "$WORK/proj" "$WORK/proj/src/a.cu"
cd "$WORK/elsewhere" || exit 1
expect_exit 1 "--fix from another directory" -- "$STREAMLINT" -p "$WORK/proj" --fix
expect_stderr "applied 1 fix(es) in 1 file(s)"
[ "$(grep -cF -- "$FIXED_LINE" "$WORK/proj/src/a.cu")" = 2 ] || fail "not fixed from another directory"
# --fix-root narrower than the project: the fix is outside it, skipped, exit 4.
source_file 2 >"$WORK/proj/src/a.cu"
mkdir -p "$WORK/proj/other"
expect_exit 4 "--fix-root excluding the file" -- "$STREAMLINT" -p "$WORK/proj" --fix --fix-root "$WORK/proj/other"
expect_stderr "1 skipped (1 outside the project root)"
expect_stderr "set it with --fix-root"
expect_exit 2 "--fix-root that is not a directory" -- "$STREAMLINT" -p "$WORK/proj" --fix --fix-root "$WORK/nope"
expect_stderr "--fix-root"
finish
