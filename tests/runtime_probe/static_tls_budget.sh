#!/usr/bin/env bash
# The CUDA driver dlopen's the probe, whose thread-local data is in the
# initial-exec TLS model (ThreadState.h): it comes out of glibc's static TLS
# reserve for dlopen'ed libraries, a few hundred bytes shared by every such
# library in the process. Keep it to the one thread-state pointer.
#   static_tls_budget.sh LIBRARY MAX_BYTES
set -eu
lib=$1 max=$2
size=$(readelf -lW "$lib" | awk '$1 == "TLS" {print $6}')
if [ -z "$size" ]; then
  echo "$lib: no TLS segment (the thread-state pointer is missing?)" >&2
  exit 1
fi
echo "$lib: TLS segment of $((size)) bytes (budget $max)"
[ $((size)) -le "$max" ]
