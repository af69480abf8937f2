#!/usr/bin/env bash
# Proof on the GPU that the fixes --fix applies keep a program's results, and
# what they change in time (issue 13; results in docs/gpu-validation.md).
#
#   fix_proof.sh prepare OUT CASES   here: needs nvcc and a built streamlint.
#       For each case, copies its sources twice (before/, after/), writes a
#       compile_commands.json, runs `streamlint --fix` on after/ (a case whose
#       fixes do not apply fails), builds both copies with nvcc and keeps the
#       diff and the applied fixes' check ids.
#   fix_proof.sh run OUT [REPS]      on the GPU node: runs each case's before
#       and after binary REPS times (default 5) without the probe and once
#       under streamlint-probe (OUT/probe/bin/streamlint-probe, its library in
#       OUT/probe/lib), checks exit status and output are the same in all four
#       (stdout with the case's filter applied: lines that print measured
#       times), and prints a table: median wall time before/after and the
#       ratio. Exit 1 on any difference, 77 without a GPU.
#
# CASES: one case per line, fields separated by |:
#   name  source-dir  sources (space-separated, relative)  nvcc-flags  args  filter-regex
# (filter-regex: grep -E pattern of stdout lines to drop before comparing;
#  "-" for none). Lines starting with # are comments.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:?prepare or run}
out=${2:?output directory}

prepare() {
  local cases=$1 streamlint=${STREAMLINT:-$here/../../build/bin/streamlint}
  local nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  [ -x "$nvcc" ] || { echo "SKIP: nvcc not found"; exit 77; }
  [ -x "$streamlint" ] || { echo "FAIL: $streamlint not built"; exit 1; }
  mkdir -p "$out/bin"
  : >"$out/cases.tsv"
  local failures=0
  while IFS='|' read -r name dir sources flags args filter; do
    case "$name" in ''|'#'*) continue ;; esac
    local base=${FIX_PROOF_SRC:-$out/src}/$name
    rm -rf "$base"; mkdir -p "$base"
    cp -r "$dir" "$base/before"; cp -r "$dir" "$base/after"
    local sep="" file
    { echo "["
      for file in $sources; do
        printf '%s{"directory": "%s", "file": "%s", "command": "nvcc %s -c %s -o /dev/null"}\n' \
          "$sep" "$base/after" "$base/after/$file" "$flags" "$base/after/$file"
        sep=","
      done
      echo "]"; } >"$base/after/compile_commands.json"
    (cd "$base/after" && "$streamlint" -p . --format=json -o "$base/findings.json" --fix \
       >/dev/null 2>"$base/fix.log")
    cp "$base/after/compile_commands.json" "$base/database.json" # for bench/fixes/trace_check.py
    rm -f "$base/after/compile_commands.json"
    local applied
    applied=$(sed -n 's/.*applied \([0-9]*\) fix(es).*/\1/p' "$base/fix.log")
    if [ "${applied:-0}" = 0 ]; then
      echo "FAIL: $name: --fix applied nothing"; sed 's/^/  | /' "$base/fix.log"
      failures=$((failures + 1)); continue
    fi
    (cd "$base" && diff -ru before after >"$base/fix.diff")
    local kinds
    kinds=$(python3 - "$base/findings.json" <<'PY'
import json, sys, collections
report = json.load(open(sys.argv[1]))
count = collections.Counter()
for f in report.get("findings", []):
    if any(fx.get("applicable") for fx in f.get("fixes", [])):
        count[f.get("check") or f.get("checkId") or f.get("rule", "?")] += 1
print(",".join(f"{k}:{v}" for k, v in sorted(count.items())) or "?")
PY
)
    local variant ok=1
    for variant in before after; do
      # FIX_PROOF_KEEP_BEFORE=1: a before binary built earlier is kept.
      [ "$variant" = before ] && [ -n "${FIX_PROOF_KEEP_BEFORE:-}" ] &&
        [ -x "$out/bin/$name.before" ] && continue
      (cd "$base/$variant" && "$nvcc" -O2 -arch=sm_90 -cudart static $flags \
         -o "$out/bin/$name.$variant" $sources) >"$base/nvcc.$variant.log" 2>&1 ||
        { echo "FAIL: $name: nvcc $variant"; tail -5 "$base/nvcc.$variant.log"; ok=0; }
    done
    [ $ok = 1 ] || { failures=$((failures + 1)); continue; }
    printf '%s|%s|%s|%s|%s\n' "$name" "$applied" "$kinds" "$args" "$filter" >>"$out/cases.tsv"
    echo "prepared $name: $applied fix(es) applied ($kinds)"
  done <"$cases"
  [ $failures = 0 ]
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

run_case() { # name reps args filter -> prints a table row, returns 1 on a difference
  local name=$1 reps=$2 args=$3 filter=$4 variant i t0 t1 status probe=$out/probe/bin/streamlint-probe
  local work=$out/runs/$name; mkdir -p "$work"
  for variant in before after; do
    : >"$work/$variant.times"
    for i in $(seq 1 "$reps"); do
      t0=$(date +%s%N)
      (cd "$work" && eval "\"$out/bin/$name.$variant\" $args") >"$work/$variant.plain.out" 2>"$work/$variant.plain.err"
      status=$?
      t1=$(date +%s%N)
      echo $(( (t1 - t0) / 1000 )) >>"$work/$variant.times"
      echo $status >"$work/$variant.plain.status"
    done
    t0=$(date +%s%N)
    (cd "$work" && eval "\"$probe\" -o \"$work/$variant.trace\" -- \"$out/bin/$name.$variant\" $args") \
      >"$work/$variant.probe.out" 2>"$work/$variant.probe.err"
    echo $? >"$work/$variant.probe.status"
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 )) >"$work/$variant.probe.time"
  done
  local same=yes reference=$work/before.plain filtered
  for run in before.plain before.probe after.plain after.probe; do
    if [ "$filter" = "-" ]; then cp "$work/$run.out" "$work/$run.cmp"
    else grep -vE "$filter" "$work/$run.out" >"$work/$run.cmp"; fi
    cmp -s "$work/before.plain.cmp" "$work/$run.cmp" 2>/dev/null || [ "$run" = before.plain ] || same="no($run)"
    cmp -s "$work/before.plain.status" "$work/$run.status" || same="no(status $run)"
  done
  filtered=0
  [ "$filter" = "-" ] || filtered=$(grep -cE "$filter" "$work/before.plain.out")
  local before after ratio
  before=$(median <"$work/before.times"); after=$(median <"$work/after.times")
  ratio=$(awk -v a="$after" -v b="$before" 'BEGIN {printf "%.3f", a / b}')
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(cat "$work/before.plain.status")" \
    "$same" "${filtered:-0}" "$before" "$after" "$ratio" "$(cat "$work/before.probe.time")" "$(cat "$work/after.probe.time")"
  [ "$same" = yes ]
}

run() {
  local reps=${1:-5}
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no NVIDIA GPU"; exit 77
  fi
  nvidia-smi -L
  export LD_LIBRARY_PATH=$out/probe/lib:${LD_LIBRARY_PATH:-}
  export STREAMLINT_PROBE_LIBRARY=$out/probe/lib/libstreamlint_probe.so
  echo "| case | exit | identical (4 runs) | filtered lines | before median us | after median us | after/before | before+probe us | after+probe us |"
  echo "|---|---|---|---|---|---|---|---|---|"
  local failures=0
  while IFS='|' read -r name applied kinds args filter; do
    run_case "$name" "$reps" "$args" "$filter" || failures=$((failures + 1))
  done <"$out/cases.tsv"
  [ $failures = 0 ] || { echo "FAIL: $failures case(s) differ"; exit 1; }
}

case "$mode" in
  prepare) prepare "${3:?cases file}" ;;
  run) run "${3:-5}" ;;
  *) echo "usage: fix_proof.sh prepare OUT CASES | run OUT [REPS]"; exit 2 ;;
esac
