#!/usr/bin/env bash
# The probe's fixed cost on a process with PyTorch's libraries loaded
# (issue 27; docs/measurements/probe-vs-other-tools.md, 2026-11-27). Builds
# testdata/gpu/torch_ext/ext.cu with torch.utils.cpp_extension, prints the
# probe's own start-up and flush (STREAMLINT_PROBE_TIMING=1) and the
# launcher's symbolization (-v) for three runs of run.py, then REPS
# interleaved whole-process runs of tiny.py and `run.py 3`: unprobed, under
# CUPTI alone (libcupti_floor.so, with libcupti.so.13 beside it) and under
# the probe, with the sorted times and the median of each.
#   python_fixed_cost.sh BUILD_DIR [REPS]   (BUILD_DIR: bin/streamlint-probe,
#                                            lib/libcupti_floor.so)
set -u
build=$(cd "$1" && pwd) reps=${2:-9}
probe=$build/bin/streamlint-probe floor=$build/lib/libcupti_floor.so
cd "$(dirname "$0")/../../testdata/gpu/torch_ext" || exit 1
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_ext_build}
python3 -c 'from load_ext import load; load()' || exit 1
for i in 1 2 3; do
  STREAMLINT_PROBE_TIMING=1 "$probe" -v -o /tmp/fixed-cost.trace -- python3 run.py 3 2>&1 | grep -v '^checksum'
done
ms() { local t0; t0=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - t0) / 1000000 )); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for prog in "python3 tiny.py" "python3 run.py 3"; do
  : >"$tmp/plain"; : >"$tmp/floor"; : >"$tmp/probe"
  for _ in $(seq "$reps"); do
    ms $prog >>"$tmp/plain"
    ms env LD_LIBRARY_PATH="$(dirname "$floor")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      STREAMLINT_PROBE_LIBRARY="$floor" "$probe" -o "$tmp/f.trace" -- $prog >>"$tmp/floor"
    ms "$probe" -o "$tmp/p.trace" -- $prog >>"$tmp/probe"
  done
  for v in plain floor probe; do
    echo "$prog $v: $(sort -n "$tmp/$v" | tr '\n' ' ')median $(sort -n "$tmp/$v" | sed -n "$(( (reps + 1) / 2 ))p")"
  done
done
