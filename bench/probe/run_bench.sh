#!/usr/bin/env bash
# Probe overhead: runs each workload unprobed and under streamlint-probe,
# alternating, REPS times, and prints medians and ratios.
#   run_bench.sh BENCH_BINARY PROBE_LAUNCHER [REPS]
set -eu
bench=$1 probe=$2 reps=${3:-5}
tmp=$(mktemp -d)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
for mode in launch pipeline; do
  : >"$tmp/plain"; : >"$tmp/probed"; : >"$tmp/plainwall"; : >"$tmp/probedwall"
  for r in $(seq "$reps"); do
    t0=$(date +%s%N); out=$("$bench" $mode); t1=$(date +%s%N)
    echo "$out" | field us >>"$tmp/plain"; echo $(( (t1 - t0) / 1000 )) >>"$tmp/plainwall"
    calls=$(echo "$out" | field calls)
    t0=$(date +%s%N); out=$("$probe" -o "$tmp/t.trace" -- "$bench" $mode); t1=$(date +%s%N)
    echo "$out" | field us >>"$tmp/probed"; echo $(( (t1 - t0) / 1000 )) >>"$tmp/probedwall"
  done
  p=$(median <"$tmp/plain"); q=$(median <"$tmp/probed")
  pw=$(median <"$tmp/plainwall"); qw=$(median <"$tmp/probedwall")
  awk -v m=$mode -v c=$calls -v p=$p -v q=$q -v pw=$pw -v qw=$qw 'BEGIN {
    printf "%-8s calls=%d timed: unprobed %.0f us, probed %.0f us, ratio %.4f, added %.3f us/call\n", m, c, p, q, q/p, (q-p)/c;
    printf "%-8s whole process (start-up, exit, symbolization): unprobed %.0f us, probed %.0f us, ratio %.4f\n", m, pw, qw, qw/pw }'
done
rm -rf "$tmp"
