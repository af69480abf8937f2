#!/usr/bin/env bash
# A PyTorch extension under the probe (issue 27): builds torch_ext/ext.cu
# with torch.utils.cpp_extension (-g -lineinfo), runs torch_ext/run.py with
# and without streamlint-probe (same output and exit status), the pytest
# suite torch_ext/test_ext.py under it (and `-n 2` where pytest-xdist is
# installed), torch_ext/procs.py (exec'd, spawned, forked and os.fork'ed
# children: 5 processes in the trace) and, where torchrun is, two torchrun
# workers (3 processes: the agent initializes CUDA too, to count the GPUs). The analyzer half merges run.py's trace with the
# static analysis of ext.cu (PyTorch's headers from ../shared/third_party)
# and checks that every `// LIBRARY: <status>` line has a
# library-default-stream finding with that status, that every
# `IN-LIBRARY: <call>` line has run-time observations named after that
# library call, and that no finding lies outside torch_ext/.
# Exit 77 without a GPU, PyTorch or the headers.
#   torch_evidence.sh [BUILD_DIR]
# Env: STREAMLINT_E2E_WORK=DIR (traces and reports), STREAMLINT_E2E_PROBE_ONLY=1 /
#      STREAMLINT_E2E_ANALYZER_ONLY=1 (the halves apart: the GPU machine has
#      no analyzer), STREAMLINT_E2E_TRACE_ROOT=DIR the torch_ext directory the
#      trace was recorded in (its paths are mapped to this one).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ext=$here/torch_ext
build=$(cd "${1:-$here/../../build}" && pwd)
work=${STREAMLINT_E2E_WORK:-$build/testdata-gpu}
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
probe=$build/bin/streamlint-probe

if [ "${STREAMLINT_E2E_ANALYZER_ONLY:-0}" != 1 ]; then
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no NVIDIA GPU"; exit 77; }
  python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null ||
    { echo "SKIP: no PyTorch with CUDA"; exit 77; }
  export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-$work/torch_extensions}
  (cd "$ext" && python3 -c 'from load_ext import load; load()') || fail "building the extension"
  (cd "$ext" && python3 run.py 10) >"$work/torch.plain.out" 2>&1; plain=$?
  (cd "$ext" && "$probe" -v -o "$work/torch.trace" -- python3 run.py 10) \
    >"$work/torch.probed.out" 2>"$work/torch.probed.err"; probed=$?
  [ "$plain" = 0 ] || fail "run.py exited $plain"
  [ "$probed" = "$plain" ] || fail "exit status changed under the probe ($plain -> $probed)"
  cmp -s "$work/torch.plain.out" "$work/torch.probed.out" || fail "output changed under the probe"
  failed=0
  miss() { echo "FAIL: $*"; failed=1; }
  if python3 -c 'import pytest' 2>/dev/null; then
    (cd "$ext" && "$probe" -v -o "$work/pytest.trace" -- python3 -m pytest -q -p no:cacheprovider test_ext.py) \
      >"$work/pytest.out" 2>&1 || miss "pytest under the probe"
    grep -q "3 passed" "$work/pytest.out" || miss "pytest: not 3 passed"
    if python3 -c 'import xdist' 2>/dev/null; then
      (cd "$ext" && "$probe" -v -o "$work/pytest-n2.trace" -- python3 -m pytest -q -n 2 -p no:cacheprovider test_ext.py) \
        >"$work/pytest-n2.out" 2>&1 || miss "pytest -n 2 under the probe"
    else
      echo "note: pytest-xdist not installed: pytest -n 2 not run"
    fi
  else
    echo "note: pytest not installed: the pytest runs were not made"
  fi
  (cd "$ext" && "$probe" -v -o "$work/procs.trace" -- python3 procs.py) >"$work/procs.out" 2>&1 ||
    miss "procs.py under the probe"
  python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("procs.py processes:", t["processes"]); sys.exit(t["processes"] != 5)' \
    "$work/procs.trace" || miss "procs.py: not 5 processes in the trace"
  if command -v torchrun >/dev/null; then
    (cd "$ext" && "$probe" -v -o "$work/torchrun.trace" -- torchrun --standalone --nproc_per_node=2 torchrun_worker.py) \
      >"$work/torchrun.out" 2>&1 || miss "torchrun under the probe"
    python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("torchrun processes:", t["processes"]); sys.exit(t["processes"] != 3)' \
      "$work/torchrun.trace" || miss "torchrun: not 3 processes in the trace (the agent and 2 workers)"
  fi
  [ $failed = 0 ] || exit 1
fi
[ "${STREAMLINT_E2E_PROBE_ONLY:-0}" = 1 ] && { echo "probe half done: $work/torch.trace"; exit 0; }

tarball=$here/../../../shared/third_party/torch-2.11.0-include.tar.xz
[ -f "$tarball" ] || tarball=/work/shared/third_party/torch-2.11.0-include.tar.xz
[ -f "$tarball" ] || { echo "SKIP: PyTorch headers not found"; exit 77; }
inc=$work/torch-include
[ -d "$inc/include" ] || { mkdir -p "$inc" && tar -xJf "$tarball" -C "$inc"; } || fail "unpacking $tarball"
pyinc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
trace=$work/torch.trace
if [ -n "${STREAMLINT_E2E_TRACE_ROOT:-}" ]; then
  sed "s|${STREAMLINT_E2E_TRACE_ROOT%/}/|$ext/|g" "$trace" >"$work/torch.mapped.trace"
  trace=$work/torch.mapped.trace
fi
db=$work/db-torch; mkdir -p "$db"
printf '[{"directory":"%s","file":"%s","command":"nvcc -g -arch=sm_90 -std=c++17 -I%s/include -I%s/include/torch/csrc/api/include -I%s -DTORCH_EXTENSION_NAME=streamlint_torch_ext -c %s -o /dev/null"}]\n' \
  "$ext" "$ext/ext.cu" "$inc" "$inc" "$pyinc" "$ext/ext.cu" >"$db/compile_commands.json"
"$build/bin/streamlint" -p "$db" --trace "$trace" --format json -o "$work/torch.findings.json" "$ext/ext.cu"
rc=$?
[ $rc -le 1 ] || fail "streamlint exited $rc"
python3 - "$work/torch.findings.json" "$ext/ext.cu" "$trace" <<'PY'
import json, os, re, sys
report, src, trace = sys.argv[1:]
lines = list(enumerate(open(src), 1))
want = {n: m.group(1) for n, text in lines for m in [re.search(r"(?<!IN-)LIBRARY:\s*([a-z-]+)", text)] if m}
inside = {n: m.group(1) for n, text in lines for m in [re.search(r"IN-LIBRARY:\s*(\w+)", text)] if m}
bad = 0
findings = json.load(open(report))["findings"]
seen = {}
for f in findings:
    if not f["file"].startswith(os.path.dirname(src) + "/"):
        print(f"FAIL: a finding outside the program: {f['file']}:{f['line']}"); bad += 1
        continue
    if f["check"] == "library-default-stream":
        seen[f["line"]] = (f.get("dynamic") or {}).get("status", "none")
for line, status in sorted(want.items()):
    got = seen.get(line, "no finding")
    print(f"{'ok  ' if got == status else 'FAIL'} line {line}: library-default-stream {got} (want {status})")
    bad += got != status
observations = json.load(open(trace))["observations"]
for line, call in sorted(inside.items()):
    named = [o for o in observations if o["line"] == line and call in o.get("library_call", "")]
    print(f"{'ok  ' if named else 'FAIL'} line {line}: observations inside {call}: "
          + ", ".join(f"{o['check']} {o['api']} {o['calls']} calls" for o in named))
    bad += not named
for o in observations:
    if os.path.basename(o["file"]) != "ext.cu":
        print(f"FAIL: observation outside the program: {o['file']}:{o['line']}"); bad += 1
sys.exit(1 if bad else 0)
PY
