#!/usr/bin/env bash
# The GitLab template's two published recipes (its header comment), resolved
# as GitLab merges `include:` and `extends:` (tests/e2e/ci_local.py), then
# each resolved job's script run in bash with the variables GitLab gives: the
# single job writes the Code Quality report; the shards recipe's `streamlint`
# job is the merge (not the template's whole-database job) and reports what
# the single job reports.
. "$(dirname "$0")/lib.sh"
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with PyYAML not found"; exit 77; }
TEMPLATE=$SRC/integrations/gitlab/streamlint.gitlab-ci.yml
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"

# The recipes as published: consecutive "#   " lines of the header comment.
python3 - "$TEMPLATE" "$WORK" <<'PY'
import sys
blocks, current = [], []
for line in open(sys.argv[1]):
    if line.startswith("#   "):
        current.append(line[4:] if len(line) > 4 else "\n")
    elif current:
        blocks.append("".join(current)); current = []
for i, block in enumerate(blocks[:2]):
    open(f"{sys.argv[2]}/recipe{i + 1}.yml", "w").write(block)
PY
grep -q "include:" "$WORK/recipe1.yml" || fail "recipe 1 is not the include recipe: $(cat "$WORK/recipe1.yml")"
grep -q "parallel:" "$WORK/recipe2.yml" || fail "recipe 2 is not the shards recipe: $(cat "$WORK/recipe2.yml")"

P=$WORK/project
mkdir -p "$P/build" "$P/src"
cat >"$P/src/a.cu" <<'CU'
#include <cuda_runtime.h>
void loopSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
for i in 1 2 3; do
  printf '#include <cuda_runtime.h>\nvoid sync%s(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }\n' "$i" >"$P/src/b$i.cu"
done
stub_database "$P/src"
mv "$P/src/compile_commands.json" "$P/build/"
mkdir -p "$WORK/bin"
ln -s "$STREAMLINT" "$WORK/bin/streamlint"
export PATH=$WORK/bin:$PATH

# run_job RECIPE JOB [VAR=VALUE...]: the resolved job's script, as GitLab runs it.
run_job() {
  local recipe=$1 job=$2; shift 2
  python3 "$SRC/tests/e2e/ci_local.py" gitlab "$TEMPLATE" "$WORK/$recipe.yml" "$job" >"$WORK/job.json" ||
    { fail "cannot resolve $job of $recipe"; return 1; }
  python3 - "$WORK/job.json" "$WORK/job.sh" "$@" <<'PY'
import json, shlex, sys
job = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for key, value in list(job["variables"].items()) + [a.split("=", 1) for a in sys.argv[3:]]:
        out.write(f"export {key}={shlex.quote(str(value))}\n")
    out.write("set -e\n")
    for line in job["script"]:
        out.write(line + "\n")
PY
  (cd "$P" && bash "$WORK/job.sh")
}

# Recipe 1: the template's `streamlint` job with the user's variables.
python3 "$SRC/tests/e2e/ci_local.py" gitlab "$TEMPLATE" "$WORK/recipe1.yml" streamlint >"$WORK/single.json"
grep -q -- "--format gitlab" "$WORK/single.json" || fail "recipe 1: the job does not write the report"
grep -q -- "--merge-shards" "$WORK/single.json" && fail "recipe 1: the job merges shards"
run_job recipe1 streamlint >"$WORK/out" 2>"$WORK/err"
code=$?
[ "$code" = 0 ] || { fail "recipe 1: exit $code (STREAMLINT_FAIL_ON_FINDINGS is false)"; cat "$WORK/err" >&2; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 4, len(d)' \
  "$P/gl-code-quality-report.json" || fail "recipe 1: the report lacks the 4 findings"
mv "$P/gl-code-quality-report.json" "$WORK/single-report.json"
run_job recipe1 streamlint STREAMLINT_FAIL_ON_FINDINGS=true >/dev/null 2>&1
[ $? = 1 ] || fail "recipe 1: STREAMLINT_FAIL_ON_FINDINGS=true does not fail on findings"

# Recipe 2: shards, then the merge under the `streamlint` name.
python3 "$SRC/tests/e2e/ci_local.py" gitlab "$TEMPLATE" "$WORK/recipe2.yml" streamlint >"$WORK/merge.json"
grep -q -- "--merge-shards" "$WORK/merge.json" || fail "recipe 2: the streamlint job does not merge: $(cat "$WORK/merge.json")"
python3 -c 'import json,sys; assert not any("STREAMLINT_CONFIGURE" in l for l in json.load(open(sys.argv[1]))["script"])' \
  "$WORK/merge.json" || fail "recipe 2: the merge job configures (it has no CUDA toolkit)"
python3 "$SRC/tests/e2e/ci_local.py" gitlab "$TEMPLATE" "$WORK/recipe2.yml" streamlint-shards >"$WORK/shards.json"
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["parallel"])' "$WORK/shards.json")
[ "$total" -gt 1 ] || fail "recipe 2: parallel is $total"
for i in $(seq 1 "$total"); do
  run_job recipe2 streamlint-shards CI_NODE_INDEX="$i" CI_NODE_TOTAL="$total" >/dev/null 2>"$WORK/err" ||
    { fail "recipe 2: shard $i/$total failed"; cat "$WORK/err" >&2; }
done
run_job recipe2 streamlint >/dev/null 2>"$WORK/err" || { fail "recipe 2: merge failed"; cat "$WORK/err" >&2; }
cmp -s "$WORK/single-report.json" "$P/gl-code-quality-report.json" ||
  fail "recipe 2: the merged report differs from the single job's"
finish
