#!/usr/bin/env bash
# Whole-process overhead of the probe next to compute-sanitizer and Nsight
# Systems on real programs, all in one invocation: each program runs
# unprobed and under each tool, interleaved, and the table gives median wall
# time and the ratio to the unprobed median.
#   compare_tools.sh PROBE_LAUNCHER REPS 'NAME=PROGRAM ARGS...' ...
# A tool whose run exceeds SLOW_S seconds (default 20) is not repeated for
# that program; one over TIMEOUT_S (default 120) is reported as '>TIMEOUT_S s'.
# compute-sanitizer runs its default tool (memcheck); nsys runs `nsys profile
# --trace=cuda` to a throw-away report; tools not installed are left out.
# PROBE_BEFORE=LIBRARY adds a column for another build of the probe library
# (STREAMLINT_PROBE_LIBRARY), e.g. the one before a change.
set -u
probe=$1 reps=$2; shift 2
slow=${SLOW_S:-20} limit=${TIMEOUT_S:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools="plain probe"
[ -n "${PROBE_BEFORE:-}" ] && tools="plain before probe"
command -v compute-sanitizer >/dev/null && tools="$tools sanitizer"
command -v nsys >/dev/null && tools="$tools nsys"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run_tool() { # tool, program, args...: prints wall ms, or -1 on timeout
  local tool=$1 t0 t1 rc; shift
  t0=$(date +%s%N)
  case $tool in
  plain) timeout $limit "$@" ;;
  probe) timeout $limit "$probe" -o "$tmp/t.trace" -- "$@" ;;
  before) STREAMLINT_PROBE_LIBRARY=$PROBE_BEFORE timeout $limit "$probe" -o "$tmp/t.trace" -- "$@" ;;
  sanitizer) timeout $limit compute-sanitizer --print-limit 1 "$@" ;;
  nsys) timeout $limit nsys profile --trace=cuda --force-overwrite=true -o "$tmp/nsys" "$@" ;;
  esac >/dev/null 2>&1
  rc=$?; t1=$(date +%s%N)
  [ $rc = 124 ] && echo -1 || echo $(( (t1 - t0) / 1000000 ))
}
printf '| program | unprobed | %s |\n' "$(echo ${tools#plain } | sed 's/ / | /g')"
printf '| --- | --- |%s\n' "$(for t in ${tools#plain }; do printf ' --- |'; done)"
for spec in "$@"; do
  name=${spec%%=*}; cmd=${spec#*=}
  rm -f "$tmp"/*.ms
  for r in $(seq "$reps"); do
    for tool in $tools; do
      [ -e "$tmp/$tool.stop" ] && continue
      ms=$(run_tool $tool $cmd)
      if [ "$ms" = -1 ]; then echo timeout >"$tmp/$tool.stop"; continue; fi
      echo "$ms" >>"$tmp/$tool.ms"
      [ "$ms" -gt $((slow * 1000)) ] && echo slow >"$tmp/$tool.stop"
    done
  done
  base=$(median <"$tmp/plain.ms")
  row="| $name | $base ms"
  for tool in ${tools#plain }; do
    if [ -s "$tmp/$tool.ms" ]; then
      m=$(median <"$tmp/$tool.ms"); n=$(wc -l <"$tmp/$tool.ms")
      row="$row | $(awk -v m=$m -v b=$base -v n=$n 'BEGIN {printf "%d ms, %.2fx%s", m, m/b, n < 2 ? " (1 run)" : ""}')"
    else
      row="$row | >${limit} s"
    fi
  done
  echo "$row |"
done
