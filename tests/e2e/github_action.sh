#!/usr/bin/env bash
# integrations/github/action.yml's steps run here with the inputs and
# `github` context a workflow gives (tests/e2e/ci_local.py evaluates the
# `if:`s and `${{ }}`s; `uses:` steps are only recorded): a push reports
# every finding in SARIF and annotations and fails the step; a pull request
# reports only the findings on the lines it changed; min-severity and
# baseline inputs reach streamlint; install: deb without a URL downloads the
# release asset of the version in CMakeLists.txt.
. "$(dirname "$0")/lib.sh"
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with PyYAML not found"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
ACTION=$SRC/integrations/github/action.yml

P=$WORK/project
mkdir -p "$P/src" "$WORK/bin" "$WORK/runner"
cat >"$P/src/a.cu" <<'CU'
#include <cuda_runtime.h>
void loopSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
void copyBack(float *h, const float *d, size_t n) { cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }
CU
cat >"$P/src/b.cu" <<'CU'
#include <cuda_runtime.h>
void other(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
stub_database "$P/src"
mkdir -p "$P/build" && mv "$P/src/compile_commands.json" "$P/build/"
(cd "$P" && git init -q && printf 'build/\n' >.gitignore && git add -A && git commit -qm base)
BASE=$(git -C "$P" rev-parse HEAD)
ln -s "$STREAMLINT" "$WORK/bin/streamlint"
export PATH=$WORK/bin:$PATH RUNNER_TEMP=$WORK/runner GITHUB_ACTION_PATH=$SRC/integrations/github
export GITHUB_STEP_SUMMARY=$WORK/summary.md

# action INPUTS_JSON GITHUB_JSON: exit status of the action; log in $WORK/out.
action() {
  python3 "$SRC/tests/e2e/ci_local.py" action "$ACTION" "$1" "$2" "$P" >"$WORK/out" 2>&1
}
results() { # SARIF -> "file:line:check" per result
  python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    l = r["locations"][0]["physicalLocation"]
    print("%s:%d:%s" % (l["artifactLocation"]["uri"], l["region"]["startLine"], r["ruleId"]))' "$1" | sort
}

# 1. A push: every finding; the step fails on them; SARIF "uploaded".
action '{"install": "none", "build-dir": "build"}' '{"event_name": "push"}'
code=$?
[ "$code" = 1 ] || { fail "push: action exit $code, expected 1"; cat "$WORK/out" >&2; }
grep -q "would run github/codeql-action/upload-sarif" "$WORK/out" || fail "push: SARIF not uploaded"
grep -q "::warning file=src/b.cu,line=2" "$WORK/out" || fail "push: no annotation on b.cu: $(cat "$WORK/out")"
[ "$(results "$P/streamlint.sarif" | grep -c .)" -ge 3 ] || fail "push: SARIF lacks findings: $(results "$P/streamlint.sarif")"

# 2. min-severity: warning drops the cudaMemcpy note; fail-on-findings: false passes.
action '{"install": "none", "min-severity": "warning", "fail-on-findings": "false"}' '{"event_name": "push"}'
[ $? = 0 ] || fail "min-severity with fail-on-findings false: action failed: $(cat "$WORK/out")"
results "$P/streamlint.sarif" | grep -q "src/a.cu:3:" && fail "min-severity warning: the note is in the SARIF"
results "$P/streamlint.sarif" | grep -q "src/a.cu:2:" || fail "min-severity warning: the warning is missing"

# 3. A pull request changing only b.cu line 2 (the checkout is the merge
#    commit): only that finding, in SARIF and annotations and exit code.
(cd "$P" && sed -i 's/void other/void other2/' src/b.cu && git commit -qam change)
action '{"install": "none"}' "{\"event_name\": \"pull_request\", \"event\": {\"pull_request\": {\"base\": {\"sha\": \"$BASE\"}}}}"
code=$?
[ "$code" = 1 ] || { fail "pull request: action exit $code, expected 1"; cat "$WORK/out" >&2; }
[ "$(results "$P/streamlint.sarif")" = "src/b.cu:2:device-sync" ] ||
  fail "pull request: SARIF is not only the changed line's finding: $(results "$P/streamlint.sarif")"
grep -q "::warning file=src/a.cu" "$WORK/out" && fail "pull request: an annotation outside the change"
grep -q "not on a changed line" "$WORK/out" || fail "pull request: the summary does not count hidden findings"

# 4. A baseline holding today's findings: the pull request passes.
(cd "$P" && streamlint -p build --write-baseline .streamlint-baseline.json >/dev/null 2>&1) ||
  fail "--write-baseline exits non-zero"
action '{"install": "none", "baseline": ".streamlint-baseline.json", "changed-lines-only": "false"}' '{"event_name": "push"}'
[ $? = 0 ] || fail "baseline: action failed: $(cat "$WORK/out")"

# 5. A bad input is exit 2, not a silent pass.
action '{"install": "none", "args": "--checks=-*,device-snyc"}' '{"event_name": "push"}'
[ $? != 0 ] || fail "a typo in --checks passed"
grep -q "exit-code=2\|\"exit-code\": \"2\"" "$WORK/out" || fail "a typo in --checks: exit-code is not 2: $(cat "$WORK/out")"

# 6. install: deb without a URL: the release asset of CMakeLists.txt's version
#    (curl and sudo stand-ins record what they were asked).
version=$(sed -n 's/^project(streamlint VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
cat >"$WORK/bin/curl" <<SH
#!/bin/sh
echo "curl \$*" >>"$WORK/calls"; while [ \$# -gt 1 ]; do [ "\$1" = -o ] && : >"\$2"; shift; done
SH
printf '#!/bin/sh\necho "sudo $*" >>"%s/calls"\n' "$WORK" >"$WORK/bin/sudo"
printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/apt-cache"
chmod +x "$WORK/bin/curl" "$WORK/bin/sudo" "$WORK/bin/apt-cache"
action '{"install": "deb", "upload-sarif": "false"}' '{"event_name": "push"}'
grep -q "curl -fsSL -o .* https://github.com/streamlint/streamlint/releases/download/v$version/streamlint_${version}_amd64.deb" "$WORK/calls" ||
  fail "install deb: not the release asset of $version: $(cat "$WORK/calls" 2>/dev/null)"
grep -q "sudo apt-get install -y -qq .*streamlint.deb" "$WORK/calls" || fail "install deb: not installed"
finish
