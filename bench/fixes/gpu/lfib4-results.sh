#!/bin/bash
# lfib4's verification result is printed on its timing line (filtered by
# device.sh's comparison): compare the `check = ...` results alone.
cd "$(dirname "$0")"
grep '^hecbench-lfib4|' build.txt > build.lfib4.txt
cp build.txt build.all.txt; cp build.lfib4.txt build.txt
GPU_SRC=$(cat gpu-src.txt) bash build.sh >/dev/null 2>&1; cp build.all.txt build.txt
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for v in before after; do
  echo "== $v"
  ./bin/hecbench-lfib4.$v 100000000 > out.$v.txt; echo "exit $?"
  grep -o 'check = [A-Z]*' out.$v.txt | sort | uniq -c
done
grep -o 'r = [0-9]* |\|check = [A-Z]*' out.before.txt > a.txt; grep -o 'r = [0-9]* |\|check = [A-Z]*' out.after.txt > b.txt
cmp a.txt b.txt && echo "results identical"
