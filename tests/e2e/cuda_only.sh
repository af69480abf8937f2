#!/usr/bin/env bash
# Without named files only TUs that use CUDA are analyzed: the others are
# skipped after preprocessing and counted; --all-translation-units and named
# files analyze them. A TU reaching CUDA through a project header, a forced
# -include or a hand-written API declaration is never skipped.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }
STUB="$SRC/testdata/stub"

mkdir -p "$WORK/p/inc"
cd "$WORK/p" || exit 1
printf '#pragma once\n#include <cuda_runtime.h>\n' >inc/gpu.h
printf '#include <vector>\nint plain() { std::vector<int> v(3); return (int)v.size(); }\n' >plain.cpp
printf 'int plain_c(void) { return 1; }\n' >plain.c
printf '#include "gpu.h"\nvoid viaHeader() { cudaDeviceSynchronize(); }\n' >via_header.cpp
printf 'void forced() { cudaDeviceSynchronize(); }\n' >forced.cpp
printf 'extern "C" int cudaDeviceSynchronize();\nvoid byHand() { cudaDeviceSynchronize(); }\n' >by_hand.cpp
printf '#ifdef USE_GPU\n#include <cuda_runtime.h>\n#endif\nint off() { return 0; }\n' >gated_off.cpp
printf 'void kernelFile() {}\n' >kernels.cu
cat >compile_commands.json <<JSON
[
 {"directory": "$WORK/p", "file": "plain.cpp", "command": "g++ -c plain.cpp"},
 {"directory": "$WORK/p", "file": "plain.c", "command": "gcc -c plain.c"},
 {"directory": "$WORK/p", "file": "via_header.cpp", "command": "g++ -Iinc -I$STUB -c via_header.cpp"},
 {"directory": "$WORK/p", "file": "forced.cpp", "command": "g++ -include $STUB/cuda_runtime.h -c forced.cpp"},
 {"directory": "$WORK/p", "file": "by_hand.cpp", "command": "g++ -c by_hand.cpp"},
 {"directory": "$WORK/p", "file": "gated_off.cpp", "command": "g++ -I$STUB -c gated_off.cpp"},
 {"directory": "$WORK/p", "file": "kernels.cu", "command": "clang++ -x cuda --cuda-host-only -nocudainc -nocudalib -c kernels.cu"}
]
JSON

expect_exit 0 "default: CUDA TUs only" -- "$STREAMLINT" -p . --format json
jq -e '.summary.translation_units == 4 and .summary.skipped_without_cuda == 3' "$WORK/out" >/dev/null \
  || fail "expected 4 analyzed, 3 skipped: $(jq -c .summary "$WORK/out")"
expect_exit 0 "summary line" -- "$STREAMLINT" -p . --format json
expect_stderr "3 without CUDA skipped (--all-translation-units analyzes them)"

expect_exit 0 "--all-translation-units" -- "$STREAMLINT" -p . --format json --all-translation-units
jq -e '.summary.translation_units == 7 and .summary.skipped_without_cuda == 0' "$WORK/out" >/dev/null \
  || fail "expected all 7 analyzed: $(jq -c .summary "$WORK/out")"

expect_exit 0 "a named plain file is analyzed" -- "$STREAMLINT" -p . --format json plain.cpp
jq -e '.summary.translation_units == 1 and .summary.skipped_without_cuda == 0' "$WORK/out" >/dev/null \
  || fail "named file skipped: $(jq -c .summary "$WORK/out")"

# A TU the preprocessor cannot finish is analyzed (and reported), not skipped.
printf '#include "not_there.h"\nint g() { return 0; }\n' >broken.cpp
jq --arg d "$WORK/p" '. + [{"directory": $d, "file": "broken.cpp", "command": "g++ -c broken.cpp"}]' \
  compile_commands.json >db2.json && mkdir -p db2 && mv db2.json db2/compile_commands.json
expect_exit 3 "unreadable include: analyzed" -- "$STREAMLINT" -p db2 --format json
jq -e '.summary.translation_units == 5 and .summary.skipped_without_cuda == 3' "$WORK/out" >/dev/null \
  || fail "broken TU skipped: $(jq -c .summary "$WORK/out")"
finish
