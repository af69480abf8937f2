#!/usr/bin/env bash
# The CI and hook files parse, and carry the keys their hosts require.
. "$(dirname "$0")/lib.sh"
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with PyYAML not found"; exit 77; }

cat >"$WORK/check.py" <<'PY'
import json, sys, yaml
src = sys.argv[1]
problems = []
def load(path):
    with open(f"{src}/{path}") as f:
        return yaml.safe_load(f)
def need(cond, what):
    if not cond:
        problems.append(what)

hooks = load(".pre-commit-hooks.yaml")
need(isinstance(hooks, list) and len(hooks) == 1, "hooks: one hook")
hook = hooks[0]
for key, want in {"id": "streamlint", "entry": "streamlint-pre-commit", "language": "system",
                  "types_or": ["c", "c++", "cuda"], "require_serial": True}.items():
    need(hook.get(key) == want, f"hooks: {key} should be {want!r}, is {hook.get(key)!r}")

action = load("integrations/github/action.yml")
need(action.get("runs", {}).get("using") == "composite", "action: runs.using composite")
steps = action["runs"]["steps"]
for step in steps:
    need("uses" in step or step.get("shell") == "bash", f"action: step {step.get('name')} needs shell")
uses = [s.get("uses", "") for s in steps]
need(any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), "action: upload-sarif")
runs = "\n".join(s.get("run", "") for s in steps)
need("--format sarif" in runs and "--format github" in runs, "action: sarif and github formats")
for name in ("build-dir", "install", "args", "upload-sarif"):
    need(name in action.get("inputs", {}), f"action: input {name}")
import re
for ref in re.findall(r"inputs\.([a-z-]+)", yaml.safe_dump(action)):
    need(ref in action["inputs"], f"action: undefined input {ref}")

workflow = load("integrations/github/example-workflow.yml")
need(workflow.get("permissions", {}).get("security-events") == "write", "workflow: security-events write")
need(workflow.get("permissions", {}).get("actions") == "read", "workflow: actions read (private repositories)")
for name in ("baseline", "min-severity", "changed-lines-only", "warnings-as-errors"):
    need(name in action.get("inputs", {}), f"action: input {name}")
need(any("integrations/github" in s.get("uses", "") for s in workflow["jobs"]["streamlint"]["steps"]),
     "workflow: uses the action")

need("shard" in action["inputs"] and "merge-shards" in action["inputs"], "action: shard inputs")
need("--shard=" in runs and "--merge-shards" in runs, "action: runs --shard and --merge-shards")
sharded = load("integrations/github/example-sharded-workflow.yml")
jobs = sharded.get("jobs", {})
matrix = jobs.get("analyze", {}).get("strategy", {}).get("matrix", {}).get("shard", [])
need(len(matrix) > 1, "sharded workflow: a matrix of shards")
withs = [s.get("with", {}) for s in jobs.get("analyze", {}).get("steps", [])]
need(any(w.get("shard") == "${{ matrix.shard }}/%d" % len(matrix) for w in withs),
     "sharded workflow: shard I/N over the whole matrix")
need(jobs.get("report", {}).get("needs") == "analyze", "sharded workflow: report needs analyze")
merge = [s.get("with", {}).get("merge-shards", "") for s in jobs.get("report", {}).get("steps", [])]
need(any(len(m.split()) == len(matrix) for m in merge), "sharded workflow: merges every shard's part")

gitlab = load("integrations/gitlab/streamlint.gitlab-ci.yml")
shards = gitlab.get(".streamlint-shards", {})
need(any("--shard=" in line and "CI_NODE_INDEX" in line and "CI_NODE_TOTAL" in line
         for line in shards.get("script", [])), "gitlab: shards use CI_NODE_INDEX/CI_NODE_TOTAL")
merge_job = gitlab.get(".streamlint-merge", {})
need(any("--merge-shards" in line for line in merge_job.get("script", [])), "gitlab: merge job")
need(merge_job.get("artifacts", {}).get("reports", {}).get("codequality") == "$STREAMLINT_REPORT",
     "gitlab: merge job's codequality report")
need("parallel:" in open(f"{src}/integrations/gitlab/streamlint.gitlab-ci.yml").read(),
     "gitlab: a parallel: example")
# The `streamlint` job is `extends: .streamlint` (so the shards recipe can
# replace what it runs); its resolved form is checked.
import os
sys.path.insert(0, os.path.join(os.environ["STREAMLINT_SOURCE_DIR"], "tests/e2e"))
import ci_local
job = ci_local.resolve_job(gitlab, "streamlint")
need(gitlab.get("streamlint", {}).get("extends") == ".streamlint", "gitlab: streamlint extends .streamlint")
need(job.get("artifacts", {}).get("reports", {}).get("codequality") == "$STREAMLINT_REPORT",
     "gitlab: codequality report artifact")
need(all(isinstance(line, str) for line in job.get("script", [])), "gitlab: script lines are strings")
need(any("--format gitlab" in line for line in job["script"]), "gitlab: --format gitlab")

tasks = json.load(open(f"{src}/integrations/vscode/tasks.json"))
need(tasks.get("version") == "2.0.0", "vscode: tasks version")
print("\n".join(problems) if problems else "ok")
sys.exit(1 if problems else 0)
PY
expect_exit 0 "integration files" -- python3 "$WORK/check.py" "$SRC"
[ -s "$WORK/out" ] && grep -v '^ok$' "$WORK/out" | sed 's/^/  /' >&2

# The checker itself must catch a broken file.
mkdir -p "$WORK/broken" && cp -r "$SRC/integrations" "$SRC/.pre-commit-hooks.yaml" "$WORK/broken/"
sed -i 's/types_or: \[c, c++, cuda\]/types_or: [c, c++]/' "$WORK/broken/.pre-commit-hooks.yaml"
expect_exit 1 "checker rejects a hook without cuda" -- python3 "$WORK/check.py" "$WORK/broken"
expect_stdout "types_or"
finish
