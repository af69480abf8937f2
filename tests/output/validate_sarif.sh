#!/usr/bin/env bash
# Validates a SARIF file with both validators that run offline:
#   1. the SARIF multitool (`validate`, SARIF + GitHub rules); it always exits
#      0, so its own SARIF log is parsed for error- and warning-level results;
#   2. JSON-schema validation against the 2.1.0 schema that the multitool
#      package ships, with ajv-cli.
# Usage: validate_sarif.sh FILE.sarif TOOLS_NODE_DIR. Exits 77 (skip) when the
# tools are not installed (scripts/install-deps.sh installs them).
set -euo pipefail
sarif=$1
tools=$2
bin=$tools/node_modules/.bin
multitool_dir=$tools/node_modules/@microsoft/sarif-multitool-linux
schema=$multitool_dir/sarif-2.1.0.json
# The npm wrapper passes arguments through a shell unquoted ("Sarif;Gh"
# would split), so run the native binary directly.
multitool=$multitool_dir/Sarif.Multitool
if [[ ! -x $multitool || ! -x $bin/ajv || ! -f $schema ]] || ! command -v node >/dev/null; then
  echo "SKIP: SARIF validators not installed in $tools (run scripts/install-deps.sh)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Multitool.
"$multitool" validate "$sarif" --rule-kind "Sarif;Gh" \
  -o "$work/validation.sarif" --log ForceOverwrite >"$work/multitool.out" 2>&1 || true
if [[ ! -s $work/validation.sarif ]]; then
  cat "$work/multitool.out"
  echo "FAIL: the multitool wrote no log"
  exit 1
fi
status=0
node - "$work/validation.sarif" <<'JS' || status=1
const log = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
let bad = 0, seen = 0;
for (const run of log.runs) {
  for (const n of (run.invocations || []).flatMap(i => i.toolExecutionNotifications || [])) {
    console.log(`multitool notification: ${JSON.stringify(n.message)}`);
    bad++;
  }
  const rules = (run.tool.driver.rules || []);
  for (const r of run.results || []) {
    seen++;
    const level = r.level || 'warning';
    const rule = rules.find(x => x.id === r.ruleId) || {};
    const fmt = ((rule.messageStrings || {})[r.message.id] || {}).text || r.message.id;
    console.log(`multitool ${level} ${r.ruleId}: ${fmt} ${JSON.stringify(r.message.arguments || [])}`);
    if (level === 'error' || level === 'warning') bad++;
  }
}
console.log(`multitool: ${seen} results, ${bad} errors or warnings`);
process.exit(bad ? 1 : 0);
JS

# 2. JSON schema (ajv-cli picks the parser by extension).
cp "$sarif" "$work/input.json"
"$bin/ajv" validate --spec=draft2020 --strict=false -c ajv-formats \
  -s "$schema" -d "$work/input.json" --all-errors || status=1
if [[ $status != 0 ]]; then
  echo "FAIL: $sarif is not valid SARIF 2.1.0"
  exit 1
fi
echo "PASS: $sarif is valid SARIF 2.1.0 (multitool and JSON schema)"
