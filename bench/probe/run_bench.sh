#!/usr/bin/env bash
# Probe overhead per call kind: runs each workload unprobed and under
# streamlint-probe in each variant, interleaved, REPS times, and prints
# medians and the added microseconds per call against the unprobed runs of
# the same invocation.
#   run_bench.sh BENCH_BINARY PROBE_LAUNCHER [REPS] [VARIANT...]
# VARIANT: an unwinder (libunwind, libgcc, none: STREAMLINT_PROBE_UNWINDER),
# driversites (the driver entry-point callbacks forced on, as in programs
# that call the driver API: STREAMLINT_PROBE_DRIVER_SITES=1), nomemo (a
# stack walk on every call: STREAMLINT_PROBE_STACK_MEMO=0), allcallbacks (the
# whole runtime domain instead of the catalog's callbacks:
# STREAMLINT_PROBE_RUNTIME_CALLBACKS=all), notime (no clock reads:
# STREAMLINT_PROBE_HOST_TIME=0), selftime (the probe times its own callbacks
# and prints ns per callback by kind on stderr: STREAMLINT_PROBE_SELF_TIME=1),
# or NAME=LIBRARY[:VAR=VALUE...] to run
# another build of libstreamlint_probe.so (STREAMLINT_PROBE_LIBRARY) with
# those variables set, e.g. before=old/libstreamlint_probe.so or
# floorall=lib/libcupti_floor.so:STREAMLINT_PROBE_RUNTIME_CALLBACKS=all.
# Env: BENCH_MODES (default: every call kind and the pipeline), BENCH_N_<mode>
# (calls per run, '-' in the mode written as '_').
set -eu
bench=$1 probe=$2 reps=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
variants=${*:-libunwind}
modes=${BENCH_MODES:-launch copy-pinned copy-pageable memset event-record stream-sync device-sync malloc-free get-last-error stream-create-destroy pipeline}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
minimum() { sort -n | head -1; }
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; } # " us=" is not " cpu_us="
timed() { # name, command...: appends the timed-loop and whole-process us
  local name=$1 t0 t1 out; shift
  t0=$(date +%s%N); out=$("$@"); t1=$(date +%s%N)
  echo "$out" | field us >>"$tmp/$name.timed"
  echo "$out" | field cpu_us >>"$tmp/$name.cpu"
  echo "$out" | field batch_ns >>"$tmp/$name.batch"
  echo $(( (t1 - t0) / 1000 )) >>"$tmp/$name.wall"
  calls=$(echo "$out" | field calls)
}
run_variant() { # variant, mode
  case $1 in
  *=*) (
    spec=${1#*=}; IFS=: read -r -a parts <<<"$spec"
    export STREAMLINT_PROBE_LIBRARY=${parts[0]}
    for e in "${parts[@]:1}"; do export "$e"; done
    timed "${1%%=*}" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n) ;;
  allcallbacks) STREAMLINT_PROBE_RUNTIME_CALLBACKS=all timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  selftime) STREAMLINT_PROBE_SELF_TIME=1 timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  notime) STREAMLINT_PROBE_HOST_TIME=0 timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  driversites) STREAMLINT_PROBE_DRIVER_SITES=1 timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  nomemo) STREAMLINT_PROBE_STACK_MEMO=0 timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  *) STREAMLINT_PROBE_UNWINDER=$1 timed "$1" "$probe" -o "$tmp/t.trace" -- "$bench" $2 $n ;;
  esac
}
for mode in $modes; do
  rm -f "$tmp"/*.timed "$tmp"/*.wall "$tmp"/*.cpu "$tmp"/*.batch
  var=BENCH_N_${mode//-/_}; n=${!var:-}
  for r in $(seq "$reps"); do
    timed plain "$bench" $mode $n
    for v in $variants; do run_variant "$v" $mode; done
  done
  p=$(median <"$tmp/plain.timed"); pw=$(median <"$tmp/plain.wall"); pm=$(minimum <"$tmp/plain.timed")
  pb=$(median <"$tmp/plain.batch"); pc=$(median <"$tmp/plain.cpu")
  printf '%-14s calls=%d unprobed: timed %s us, whole process %s us (median of %d)\n' $mode $calls $p $pw $reps
  for v in $variants; do
    name=${v%%=*}
    q=$(median <"$tmp/$name.timed"); qw=$(median <"$tmp/$name.wall"); qm=$(minimum <"$tmp/$name.timed")
    qb=$(median <"$tmp/$name.batch"); qc=$(median <"$tmp/$name.cpu")
    # "fastest": the fastest run of each against the fastest unprobed one
    # (noise only adds time, so this resolves smaller differences).
    # "batch medians": each run's median batch (ns per call), medians over
    # the runs; "thread CPU": the calling thread's CPU time in the timed part.
    awk -v m=$mode -v u=$name -v c=$calls -v p=$p -v q=$q -v pw=$pw -v qw=$qw -v pm=$pm -v qm=$qm \
        -v pb=${pb:-0} -v qb=${qb:-0} -v pc=${pc:-0} -v qc=${qc:-0} 'BEGIN {
      printf "%-14s %-9s timed %.0f us, ratio %.4f, added %.3f us/call (fastest runs: %.3f; batch medians: %.3f; thread CPU: %.3f); whole process %.0f us, ratio %.4f\n",
        m, u, q, q/p, (q-p)/c, (qm-pm)/c, (qb-pb)/1000, (qc-pc)/c, qw, qw/pw }'
  done
done
