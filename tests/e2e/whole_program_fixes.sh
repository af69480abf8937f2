#!/usr/bin/env bash
# Stream-changing fixes decided by the callers in other files (issue 25):
# testdata/fixes/programs/cross-tu as a user runs it, through every path that
# carries the TU summaries: a fresh run, a run answered from the project
# index, a run naming only the callee's file (the caller's TU contributes
# through the index), and CI shards merged. Each must apply the same two
# fixes (runStep's and the extern "C" runFromC's launches moved to 's') and
# refuse the others.
. "$(dirname "$0")/lib.sh"
[ -e /usr/local/cuda/include/cuda.h ] || { echo "skipped: no CUDA toolkit"; exit 77; }

fix_program cross-tu main.cu step.cu
cd "$WORK/p" || exit 1
CHECKS=--checks=-*,default-stream
WANT='+  fill<<<1, 64, 0, s>>>(d, 2.0f); // applied'

for run in fresh indexed; do
  expect_exit 1 "$run run" -- "$STREAMLINT" -p . "$CHECKS" --cache-dir "$WORK/cache" --fix-dry-run
  expect_stdout "$WANT"
  expect_stderr "would apply 2 fix(es) in 1 file(s)"
done
expect_exit 1 "naming step.cu" -- "$STREAMLINT" -p . "$CHECKS" --cache-dir "$WORK/cache" --fix-dry-run step.cu
expect_stdout "$WANT"
expect_stderr "would apply 2 fix(es) in 1 file(s)"

mkdir -p parts
for i in 1 2; do
  expect_exit 0 "shard $i/2" -- "$STREAMLINT" -p . "$CHECKS" --no-cache --shard=$i/2 -o parts/p$i.json
done
expect_exit 1 "merged shards" -- "$STREAMLINT" -p . "$CHECKS" --merge-shards parts/p1.json parts/p2.json --fix-dry-run
expect_stdout "$WANT"
expect_stderr "would apply 2 fix(es) in 1 file(s)"

# The refusals say what blocks them.
expect_exit 1 "text report" -- "$STREAMLINT" -p . "$CHECKS" --no-cache --use-color=false
expect_stdout "its call at main.cu:26 (in 'main') follows the kernel launch"
expect_stdout "its address is taken"
expect_stdout "it is virtual"
expect_stdout "no call of it is in the analyzed program"
expect_stdout "passes the legacy stream (0) for 's'"
# Only the facts the whole-program pass can read are stored
# (analyzer/analysis/OrderingScope.h): lib.h's libDrain, named by main's
# call of stage(), keeps its summary in main.cu's index entry, and the fix
# in stage.cu that it decides is applied; libUnused, named by nothing,
# keeps its identity alone.
cd "$WORK" && rm -rf "$WORK/p"
fix_program header-callee main.cu stage.cu
cd "$WORK/p" || exit 1
expect_exit 1 "header-callee" -- "$STREAMLINT" -p . "$CHECKS" --cache-dir "$WORK/hc-cache" --fix-dry-run
expect_stdout '+  fill<<<1, 64, 0, stream>>>(d, 2.0f); // applied'
expect_stderr "would apply 1 fix(es) in 1 file(s)"
summaries=$(python3 - "$WORK/hc-cache" <<'PY'
import json, pathlib, sys
seen = {}
for path in sorted(pathlib.Path(sys.argv[1]).glob("entries/*/*.json")):
    text = path.read_text()
    entry = json.loads(text[text.index("\n") + 1:])
    for f in entry["reach"]["parts"]["ordering"]["functions"]:
        if f["name"] in ("libDrain", "libUnused"):
            seen.setdefault(f["name"], set()).add(f.get("summarized", True))
print(" ".join(f"{name}={sorted(v)}" for name, v in sorted(seen.items())))
PY
)
[ "$summaries" = "libDrain=[False, True] libUnused=[False]" ] \
  || fail "ordering summaries stored: '$summaries', expected libDrain summarized by main.cu's TU only"
finish
