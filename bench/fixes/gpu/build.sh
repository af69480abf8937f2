#!/bin/bash
# Builds the cases listed in build.txt (name|sources|flags) from src/<name>/{before,after}
# with the same nvcc command as testdata/gpu/fix_proof.sh prepare (the development host
# was too loaded to build them in time); all builds in parallel.
cd "$(dirname "$0")"; D=$PWD; mkdir -p bin logs
# built at the same absolute path as on the development host, so the debug
# info's paths match the sources streamlint analyzes there
G=${GPU_SRC:-/work/scratch/h25d/gpu-src}; mkdir -p $G
while IFS='|' read -r name sources flags; do
  case "$name" in ''|'#'*) continue ;; esac
  flags=${flags//@INC@/$D/inc}
  for v in before after; do
    mkdir -p $G/$name; rm -rf $G/$name/$v; cp -r src/$name/$v $G/$name/$v
    ( cd $G/$name/$v && nvcc -O2 -arch=sm_90 -cudart static $flags -o $D/bin/$name.$v $sources \
        > $D/logs/$name.$v.nvcc.log 2>&1 || echo "BUILD FAIL $name $v" ) &
  done
done < build.txt
wait
ls bin
