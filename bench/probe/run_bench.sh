#!/usr/bin/env bash
# Probe overhead: runs each workload unprobed and under streamlint-probe with
# each unwinder (STREAMLINT_PROBE_UNWINDER), interleaved, REPS times, and
# prints medians and ratios against the unprobed runs of the same invocation.
#   run_bench.sh BENCH_BINARY PROBE_LAUNCHER [REPS] [UNWINDER...]
# UNWINDER: libunwind (default), libgcc, none (no call sites: CUPTI's floor).
set -eu
bench=$1 probe=$2 reps=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
unwinders=${*:-libunwind}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
timed() { # name, command...: appends the timed-loop and whole-process us
  local name=$1 t0 t1 out; shift
  t0=$(date +%s%N); out=$("$@"); t1=$(date +%s%N)
  echo "$out" | field us >>"$tmp/$name.timed"
  echo $(( (t1 - t0) / 1000 )) >>"$tmp/$name.wall"
  calls=$(echo "$out" | field calls)
}
for mode in launch pipeline; do
  rm -f "$tmp"/*.timed "$tmp"/*.wall
  for r in $(seq "$reps"); do
    timed plain "$bench" $mode
    for u in $unwinders; do
      STREAMLINT_PROBE_UNWINDER=$u timed "$u" "$probe" -o "$tmp/t.trace" -- "$bench" $mode
    done
  done
  p=$(median <"$tmp/plain.timed"); pw=$(median <"$tmp/plain.wall")
  printf '%-8s calls=%d unprobed: timed %s us, whole process %s us (median of %d)\n' $mode $calls $p $pw $reps
  for u in $unwinders; do
    q=$(median <"$tmp/$u.timed"); qw=$(median <"$tmp/$u.wall")
    awk -v m=$mode -v u=$u -v c=$calls -v p=$p -v q=$q -v pw=$pw -v qw=$qw 'BEGIN {
      printf "%-8s %-9s timed %.0f us, ratio %.4f, added %.3f us/call; whole process %.0f us, ratio %.4f\n",
        m, u, q, q/p, (q-p)/c, qw, qw/pw }'
  done
done
