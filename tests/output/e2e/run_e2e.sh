#!/usr/bin/env bash
# Runs the installed-style streamlint binary on tests/output/e2e/app.cpp as a
# user would: text, json, sarif (validated when the validators are present),
# github (with a job summary), gitlab, NOLINT suppressions and a baseline that
# survives a line shift. Usage: run_e2e.sh STREAMLINT SOURCE_DIR TOOLS_NODE_DIR
set -uo pipefail
streamlint=$1
here=$2/tests/output/e2e
tools=$3
command -v node >/dev/null || { echo "SKIP: node not found"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/app.cpp" "$work/app.cpp"
cat >"$work/compile_commands.json" <<JSON
[{"directory": "$work", "file": "$work/app.cpp", "command": "clang++ -std=c++17 -isystem $2/testdata/stub -c app.cpp"}]
JSON
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_eq() { [[ $1 == "$2" ]] || fail "$3: expected [$2], got [$1]"; }
json() { node -e "const d=JSON.parse(require('fs').readFileSync(0,'utf8')); console.log($1)"; }

# Text: two findings survive the NOLINT comments; notes alone exit 0.
"$streamlint" -p . --quiet --use-color=false >text.out 2>text.err
expect_eq "$?" 0 "text exit code"
expect_eq "$(grep -c 'warning:\|note:' text.out)" 2 "text finding count"
grep -q '^app.cpp:6:3: note: cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream; not on a hot path, but it still serializes all streams \[device-sync\]$' text.out ||
  fail "text: finding at 6:3 missing"
grep -q '^app.cpp:10:16: note: cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream; not on a hot path, but it still serializes all streams \[device-sync\]$' text.out ||
  fail "text: finding at 10:16 (after UTF-8) missing"
grep -q '^   10 |   /\* é → \*/ cudaDeviceSynchronize();$' text.out || fail "text: snippet missing"
grep -q '^      |             \^~~~~~~~~~~~~~~~~~~~~~~$' text.out || fail "text: caret misplaced"

# JSON: schema fields and fingerprints.
"$streamlint" -p . --quiet --format json >out.json 2>/dev/null
expect_eq "$(json 'd.version + " " + d.findings.length + " " + d.findings[1].column + " " + d.findings[1].fingerprint.length' <out.json)" \
  "1 2 16 32" "json version, count, byte column, fingerprint"

# SARIF: code-point columns; the real output passes both validators.
"$streamlint" -p . --quiet --format sarif -o out.sarif 2>/dev/null
expect_eq "$(json 'd.runs[0].results.map(r => r.locations[0].physicalLocation.region.startColumn + ":" + r.locations[0].physicalLocation.artifactLocation.uri).join(" ")' <out.sarif)" \
  "3:app.cpp 13:app.cpp" "sarif columns and uris"
"$2/tests/output/validate_sarif.sh" out.sarif "$tools" >validate.out 2>&1
case $? in
  0) ;;
  77) echo "note: SARIF validators not installed; schema validation skipped" ;;
  *) cat validate.out; fail "streamlint's SARIF does not validate" ;;
esac

# GitHub: annotations and the job summary.
GITHUB_STEP_SUMMARY=$work/summary.md "$streamlint" -p . --quiet --format github >gh.out 2>/dev/null
grep -q '^::notice file=app.cpp,line=6,col=3,endLine=6,endColumn=25,title=streamlint%3A device-sync::cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream; not on a hot path, but it still serializes all streams$' gh.out ||
  { cat gh.out; fail "github annotation"; }
grep -q '| note | device-sync | app.cpp:10:16 | cudaDeviceSynchronize blocks the host until all work on the device has finished, in every stream; not on a hot path, but it still serializes all streams |' summary.md ||
  fail "github job summary"

# GitLab.
"$streamlint" -p . --quiet --format gitlab >gl.json 2>/dev/null
expect_eq "$(json 'd.map(i => i.location.path + ":" + i.location.lines.begin + ":" + i.severity).join(" ")' <gl.json)" \
  "app.cpp:6:info app.cpp:10:info" "gitlab issues"

# Baseline: shift every line down, add one new call; only that one is new.
"$streamlint" -p . --quiet --write-baseline base.json >/dev/null 2>&1
# A report and a baseline of the same tree carry the same fingerprints.
fingerprints='d.findings.map(f => f.fingerprint).sort().join(" ")'
expect_eq "$(json "$fingerprints" <out.json)" "$(json "$fingerprints" <base.json)" \
  "json report and baseline fingerprints"
expect_eq "$(json 'd.runs[0].results.map(r => r.partialFingerprints["streamlint/v1"]).sort().join(" ")' <out.sarif)" \
  "$(json "$fingerprints" <base.json)" "sarif report and baseline fingerprints"
{ printf '// two new\n// lines\n'; cat "$here/app.cpp"; printf 'void fresh() { cudaDeviceSynchronize(); }\n'; } >app.cpp
"$streamlint" -p . --quiet --use-color=false --baseline base.json >base.out 2>/dev/null
expect_eq "$(grep -c 'note:' base.out)" 1 "baseline: new finding count"
grep -q '^app.cpp:18:16: note: ' base.out || { cat base.out; fail "baseline: the new call"; }
"$streamlint" -p . --quiet --baseline out.sarif --format sarif >base.sarif 2>/dev/null
expect_eq "$(json 'd.runs[0].results.map(r => r.baselineState + "@" + r.locations[0].physicalLocation.region.startLine).join(" ")' <base.sarif)" \
  "new@18" "baseline from SARIF"
"$streamlint" -p . --quiet --baseline missing.json >/dev/null 2>err.out
expect_eq "$?" 2 "unreadable baseline exit code"
grep -q 'missing.json' err.out || fail "unreadable baseline error names the file"

if [[ $failures != 0 ]]; then
  echo "$failures end-to-end failures"
  exit 1
fi
echo "PASS: end-to-end outputs, suppressions and baselines"
