#!/usr/bin/env bash
# Run-time evidence for library-default-stream on a real GPU: builds
# library_streams.cu (cuBLAS, Thrust, CUB; nvcc -g, static cudart), runs it
# with and without streamlint-probe (same output and exit status), analyzes
# it with --trace and checks that every `// LIBRARY: <status>` line has a
# library-default-stream finding with that run-time status and that nothing
# else in the file is a library-default-stream finding or a run-time-only
# finding (the bound handle, the .on(s) policy and CUB with a stream did
# their work on the created stream), and that every `RUNTIME-ONLY: <checks>`
# line has exactly those run-time-only findings: library work the static
# checks do not flag (device_vector's copies, Thrust's and cuBLAS's own
# synchronizations). Exit 77 without a GPU or nvcc.
#   library_evidence.sh [BUILD_DIR]
# Env: STREAMLINT_E2E_WORK=DIR  where the program, trace and report go
#      STREAMLINT_E2E_PREBUILT=1  use $STREAMLINT_E2E_WORK/library_streams as built
#      STREAMLINT_E2E_PROBE_ONLY=1 / STREAMLINT_E2E_ANALYZER_ONLY=1  the two
#      halves apart (probe on the GPU machine, analyzer where it is built)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
work=${STREAMLINT_E2E_WORK:-$build/testdata-gpu}
mkdir -p "$work"
program=$work/library_streams
src=$here/library_streams.cu
fail() { echo "FAIL: $*"; exit 1; }

if [ "${STREAMLINT_E2E_ANALYZER_ONLY:-0}" != 1 ]; then
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no NVIDIA GPU"; exit 77
  fi
  if [ ! -x "$program" ] || { [ "${STREAMLINT_E2E_PREBUILT:-0}" != 1 ] && [ "$src" -nt "$program" ]; }; then
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [ -x "$nvcc" ] || { echo "SKIP: nvcc not found"; exit 77; }
    "$nvcc" -g -arch=sm_90 -cudart static -o "$program" "$src" -lcublas || fail "nvcc"
  fi
  "$program" >"$work/library.plain.out" 2>&1; plain=$?
  "$build/bin/streamlint-probe" -o "$work/library.trace" -- "$program" \
    >"$work/library.probed.out" 2>"$work/library.probed.err"; probed=$?
  [ "$plain" = 0 ] || fail "library_streams exited $plain"
  [ "$probed" = "$plain" ] || fail "exit status changed under the probe ($plain -> $probed)"
  cmp -s "$work/library.plain.out" "$work/library.probed.out" || fail "output changed under the probe"
fi
[ "${STREAMLINT_E2E_PROBE_ONLY:-0}" = 1 ] && { echo "probe half done: $work/library.trace"; exit 0; }

db=$work/db-library; mkdir -p "$db"
printf '[{"directory":"%s","file":"%s","command":"nvcc -g -arch=sm_90 -c %s -o /dev/null"}]\n' \
  "$here" "$src" "$src" >"$db/compile_commands.json"
"$build/bin/streamlint" -p "$db" --trace "$work/library.trace" --format json \
  -o "$work/library.findings.json" "$src"
rc=$?
[ $rc -le 1 ] || fail "streamlint exited $rc"
python3 - "$work/library.findings.json" "$src" <<'PY'
import json, os, re, sys
report, src = sys.argv[1:]
lines = list(enumerate(open(src), 1))
want = {n: m.group(1) for n, line in lines
        for m in [re.search(r"LIBRARY:\s*([a-z-]+)", line)] if m}
runtime_only = {(n, check) for n, line in lines
                for m in [re.search(r"RUNTIME-ONLY:\s*([a-z -]+)", line)] if m
                for check in m.group(1).split()}
seen, bad = {}, 0
for f in json.load(open(report))["findings"]:
    if os.path.basename(f["file"]) != os.path.basename(src):
        continue
    line, status = f["line"], (f.get("dynamic") or {}).get("status", "none")
    if f["check"] == "library-default-stream":
        seen[line] = status
    elif status == "runtime-only" and (line, f["check"]) in runtime_only:
        runtime_only.discard((line, f["check"]))
        print(f"ok   line {line}: run-time-only {f['check']}")
    elif status == "runtime-only":
        print(f"FAIL: line {line}: run-time-only {f['check']} finding: {f['message']}"); bad += 1
for line, check in sorted(runtime_only):
    print(f"FAIL: line {line}: no run-time-only {check} finding"); bad += 1
for line, status in sorted(want.items()):
    got = seen.pop(line, "no finding")
    ok = got == status
    print(f"{'ok  ' if ok else 'FAIL'} line {line}: library-default-stream {got} (want {status})")
    bad += not ok
for line, status in seen.items():
    print(f"FAIL: line {line}: unexpected library-default-stream finding ({status})"); bad += 1
sys.exit(1 if bad else 0)
PY
