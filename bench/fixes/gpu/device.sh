#!/bin/bash
# One device call (issue 25, helper h25d): plain runs before/after and one run
# each under streamlint-probe; brings back the table, a results TSV and the
# traces (xz, split under the size limit of what a call returns).
cd "$(dirname "$0")"; D=$PWD; T0=$(date +%s)
REPS=${REPS:-2}; LIMIT=${LIMIT:-470}   # seconds from the start for the runs
{ nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; date -u; } > $OUT/table.txt 2>&1
{ [ -f data/gen.sh ] && bash data/gen.sh; } >> $OUT/table.txt 2>&1 &
[ -s build.txt ] && { GPU_SRC=$(cat gpu-src.txt 2>/dev/null) timeout 200 bash build.sh >> $OUT/table.txt 2>&1; tail -n 3 logs/*.log > $OUT/nvcc.txt 2>&1; }
wait; date -u >> $OUT/table.txt
# only cases whose two binaries exist
cp cases.tsv cases.all.tsv
while IFS='|' read -r name rest; do
  [ -x bin/$name.before ] && [ -x bin/$name.after ] && echo "$name|$rest" || echo "NOT BUILT: $name" >> $OUT/table.txt
done < cases.all.tsv | grep -v '^NOT' > cases.tsv
start=$(date +%s)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
LIMIT=$((LIMIT - ($(date +%s) - T0)))
( timeout $LIMIT bash fix_proof.sh run $D $REPS >> $OUT/table.txt 2>&1; echo "rc=$?" >> $OUT/table.txt )
date -u >> $OUT/table.txt
{ printf 'case\tvariant\tplain_status\tprobe_status\tplain_us\tprobe_us\tstdout_lines\tstderr_tail\n'
  for w in runs/*; do n=${w#runs/}
    for v in before after; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$v" "$(cat $w/$v.plain.status 2>/dev/null)" \
        "$(cat $w/$v.probe.status 2>/dev/null)" "$(tr '\n' ' ' < $w/$v.times 2>/dev/null)" \
        "$(cat $w/$v.probe.time 2>/dev/null)" "$(wc -l < $w/$v.plain.out 2>/dev/null)" \
        "$(tail -c 200 $w/$v.plain.err 2>/dev/null | tr '\n\t' '  ')"
    done
  done; } > $OUT/results.tsv
ls -la runs/*/*.trace >> $OUT/table.txt 2>&1
tar cf - runs/*/*.trace runs/*/*.cmp runs/*/*.status runs/*/*.times runs/*/*.err 2>/dev/null | xz -T16 -3 > /tmp/traces.tar.xz
ls -la /tmp/traces.tar.xz >> $OUT/table.txt
split -b 15m -d /tmp/traces.tar.xz $OUT/traces.tar.xz.
