#!/usr/bin/env bash
# NCCL on two GPUs under the probe (issue 27): runs nccl_two_gpus (built
# here against NCCL's headers and a stub libnccl.so.2, nccl_stub.c; NCCL
# itself from the GPU machine's nvidia-nccl-cu13 wheel) with and without
# streamlint-probe (same output and exit status, NCCL_NVLS_ENABLE=0), then
# merges the trace with the static analysis of nccl_two_gpus.cu and checks
# that every `// LIBRARY: <status>` line has a library-default-stream
# finding with that status, that every observation lies on a `// PLACED`
# line or another line of the program (never inside libnccl) and that no
# warning sits in a `// SET-UP` loop over the devices.
# Exit 77 with fewer than two GPUs or without NCCL's headers.
#   nccl_evidence.sh [BUILD_DIR]
# Env: STREAMLINT_E2E_WORK, STREAMLINT_E2E_PROBE_ONLY, STREAMLINT_E2E_ANALYZER_ONLY
#      as torch_evidence.sh; STREAMLINT_E2E_PROGRAM=FILE the program as built
#      elsewhere; STREAMLINT_E2E_TRACE_ROOT=DIR the directory of the source the
#      trace was recorded with (mapped to this one).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
work=${STREAMLINT_E2E_WORK:-$build/testdata-gpu}
mkdir -p "$work"
src=$here/nccl_two_gpus.cu
fail() { echo "FAIL: $*"; exit 1; }
tarball=/work/shared/third_party/nccl-2.28.9-include.tar.xz
[ -f "$here/../../../shared/third_party/nccl-2.28.9-include.tar.xz" ] &&
  tarball=$here/../../../shared/third_party/nccl-2.28.9-include.tar.xz

if [ "${STREAMLINT_E2E_ANALYZER_ONLY:-0}" != 1 ]; then
  [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] || { echo "SKIP: fewer than two GPUs"; exit 77; }
  program=${STREAMLINT_E2E_PROGRAM:-$work/nccl_two_gpus}
  if [ ! -x "$program" ]; then # build it: NCCL's headers, a stub libnccl.so.2 to link
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [ -x "$nvcc" ] || { echo "SKIP: nvcc not found"; exit 77; }
    [ -f "$tarball" ] || { echo "SKIP: NCCL headers not found"; exit 77; }
    mkdir -p "$work/nccl-include" && tar -xJf "$tarball" -C "$work/nccl-include" || fail "unpacking"
    cc -shared -fPIC -Wl,-soname,libnccl.so.2 -o "$work/libnccl.so" "$here/nccl_stub.c" || fail "stub"
    "$nvcc" -g -arch=sm_90 -I"$work/nccl-include/nccl-include" -o "$program" "$src" \
      -L"$work" -lnccl || fail "nvcc"
  fi
  nccl=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)
  [ -f "$nccl/libnccl.so.2" ] || { echo "SKIP: no libnccl.so.2 (nvidia-nccl-cu13)"; exit 77; }
  export LD_LIBRARY_PATH=$nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} NCCL_NVLS_ENABLE=0
  "$program" >"$work/nccl.plain.out" 2>&1; plain=$?
  "$build/bin/streamlint-probe" -v -o "$work/nccl.trace" -- "$program" \
    >"$work/nccl.probed.out" 2>"$work/nccl.probed.err"; probed=$?
  [ "$plain" = 0 ] || fail "nccl_two_gpus exited $plain: $(cat "$work/nccl.plain.out")"
  [ "$probed" = "$plain" ] || fail "exit status changed under the probe ($plain -> $probed)"
  cmp -s "$work/nccl.plain.out" "$work/nccl.probed.out" || fail "output changed under the probe"
fi
[ "${STREAMLINT_E2E_PROBE_ONLY:-0}" = 1 ] && { echo "probe half done: $work/nccl.trace"; exit 0; }

[ -f "$tarball" ] || { echo "SKIP: NCCL headers not found"; exit 77; }
inc=$work/nccl-include
[ -f "$inc/nccl-include/nccl.h" ] || { mkdir -p "$inc" && tar -xJf "$tarball" -C "$inc"; } || fail "unpacking"
trace=$work/nccl.trace
if [ -n "${STREAMLINT_E2E_TRACE_ROOT:-}" ]; then
  sed "s|${STREAMLINT_E2E_TRACE_ROOT%/}/|$here/|g" "$trace" >"$work/nccl.mapped.trace"
  trace=$work/nccl.mapped.trace
fi
db=$work/db-nccl; mkdir -p "$db"
printf '[{"directory":"%s","file":"%s","command":"nvcc -g -arch=sm_90 -I%s/nccl-include -c %s -o /dev/null"}]\n' \
  "$here" "$src" "$inc" "$src" >"$db/compile_commands.json"
"$build/bin/streamlint" -p "$db" --trace "$trace" --format json -o "$work/nccl.findings.json" "$src"
rc=$?
[ $rc -le 1 ] || fail "streamlint exited $rc"
python3 - "$work/nccl.findings.json" "$src" "$trace" <<'PY'
import json, re, sys
report, src, trace = sys.argv[1:]
text = open(src).read().splitlines()
want = {n: m.group(1) for n, t in enumerate(text, 1) for m in [re.search(r"LIBRARY:\s*([a-z-]+)", t)] if m}
# The lines inside a `// SET-UP` loop: from its `for` to the closing brace.
setup = set()
for n, t in enumerate(text, 1):
    if "// SET-UP" in t:
        depth, k = 0, n
        while True:
            depth += text[k - 1].count("{") - text[k - 1].count("}")
            setup.add(k)
            if depth <= 0 and k > n - 1 and "}" in text[k - 1]:
                break
            k += 1
bad, seen = 0, {}
findings = json.load(open(report))["findings"]
for f in findings:
    if f["file"] != src:
        print(f"FAIL: finding outside the program: {f['file']}:{f['line']} {f['message']}"); bad += 1
        continue
    status = (f.get("dynamic") or {}).get("status", "none")
    if f["check"] == "library-default-stream":
        seen[f["line"]] = status
    if f["line"] in setup and f["severity"] == "warning":
        print(f"FAIL: warning in a loop over devices: line {f['line']}: {f['message']}"); bad += 1
    if status == "runtime-only":
        print(f"note line {f['line']}: {f['severity']}: {f['message']}")
for line, status in sorted(want.items()):
    got = seen.get(line, "no finding")
    print(f"{'ok  ' if got == status else 'FAIL'} line {line}: library-default-stream {got} (want {status})")
    bad += got != status
t = json.load(open(trace))
for o in t["observations"]:
    if not o["file"].endswith("nccl_two_gpus.cu"):
        print(f"FAIL: observation outside the program: {o['file']}:{o['line']}"); bad += 1
print("processes", t["processes"], "library-only calls", t.get("library_only_calls"))
sys.exit(1 if bad else 0)
PY
