#!/usr/bin/env bash
# The problem matcher in integrations/vscode/tasks.json, run with node's
# regex engine (VS Code's), against real streamlint text output: diagnostic
# lines parse into file/line/column/severity/code, snippet and caret lines
# do not match.
. "$(dirname "$0")/lib.sh"
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }

P=$WORK/proj
mkdir -p "$P/src dir"
cat >"$P/src dir/k.cu" <<'CU'
#include <cuda_runtime.h>
void step(int n) {
  for (int i = 0; i < n; ++i)
    cudaDeviceSynchronize();
}
CU
printf '[{"directory": "%s", "file": "src dir/k.cu", "command": "nvcc -x cu -c \\"src dir/k.cu\\""}]\n' "$P" \
  >"$P/compile_commands.json"
cd "$P" || exit 1
# A note or a warning, depending on the check's version: both must parse.
"$STREAMLINT" -p . --use-color=false >"$WORK/text" 2>"$WORK/err"
case $? in 0|1) ;; *) fail "streamlint: exit $?"; cat "$WORK/err" >&2 ;; esac

cat >"$WORK/match.js" <<'JS'
const fs = require('fs');
const [tasksPath, outputPath, wantFile, wantLine, wantColumn] = process.argv.slice(2);
const tasks = JSON.parse(fs.readFileSync(tasksPath, 'utf8'));
const matchers = tasks.tasks.map(t => t.problemMatcher).filter(m => m && m.pattern);
if (matchers.length < 2) { console.log('expected matchers on the analyze tasks'); process.exit(1); }
let failures = 0;
const fail = m => { console.log('FAIL: ' + m); failures++; };
for (const matcher of matchers) {
  const p = matcher.pattern;
  const re = new RegExp(p.regexp);
  const problems = [];
  for (const line of fs.readFileSync(outputPath, 'utf8').split('\n')) {
    const m = re.exec(line);
    const isDiagnostic = /: (warning|error|note): /.test(line) && !/^\s/.test(line) && !line.startsWith('streamlint:');
    if (!!m !== isDiagnostic) fail(`${m ? 'matched' : 'missed'}: ${JSON.stringify(line)}`);
    if (m) problems.push({file: m[p.file], line: +m[p.line], column: +m[p.column],
                          severity: m[p.severity], message: m[p.message], code: m[p.code]});
  }
  const w = problems.find(x => x.code === 'device-sync');
  if (!w) { fail('no device-sync finding parsed'); continue; }
  // VS Code resolves relative paths against the workspace (the cwd here).
  w.file = require('path').resolve(w.file);
  const want = {file: require('path').resolve(wantFile), line: +wantLine, column: +wantColumn};
  for (const k of Object.keys(want))
    if (w[k] !== want[k]) fail(`${k}: got ${JSON.stringify(w[k])}, want ${JSON.stringify(want[k])}`);
  if (!['warning', 'note', 'error'].includes(w.severity)) fail(`severity ${w.severity}`);
  if (!w.message || /\[device-sync\]/.test(w.message)) fail(`message: ${JSON.stringify(w.message)}`);
}
process.exit(failures ? 1 : 0);
JS
expect_exit 0 "problem matcher on real output" -- node "$WORK/match.js" "$SRC/integrations/vscode/tasks.json" "$WORK/text" "src dir/k.cu" 4 5
[ "$failures" -ne 0 ] && { cat "$WORK/out" >&2; sed 's/^/  | /' "$WORK/text" >&2; }

# The matcher must not accept what it should not (the test can fail).
printf 'a.cu:1:2: warning: msg [device-sync]\n    4 |     cudaDeviceSynchronize();\n' >"$WORK/sample"
expect_exit 0 "matcher on a sample" -- node "$WORK/match.js" "$SRC/integrations/vscode/tasks.json" "$WORK/sample" a.cu 1 2
printf 'a.cu:4:5 warning msg\n' >"$WORK/bad-sample"
expect_exit 1 "matcher finds no warning in a malformed line" -- node "$WORK/match.js" "$SRC/integrations/vscode/tasks.json" "$WORK/bad-sample" a.cu 4 5
finish
