#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz: compile database, nvcc command,
# config file, baseline, trace, suppression comments, index entry, shard
# part) for SECONDS each, under AddressSanitizer and UndefinedBehaviorSanitizer.
# The target `cli` is the command-line fuzzer (tests/fuzz/cli_fuzz.sh) on the
# sanitized streamlint binary; it runs only when named.
#
#   scripts/fuzz.sh SECONDS [TARGET...]      e.g. scripts/fuzz.sh 600 trace
#
# Builds with clang-22 into build-fuzz/ (FUZZ_BUILD_DIR) with
# -DSTREAMLINT_FUZZ=ON. The corpus grows in build-fuzz/fuzz-corpus/<target>
# (seeded from tests/fuzz/corpus/<target>); inputs that crash, leak, hang or
# trip a sanitizer land in build-fuzz/fuzz-artifacts/<target>/. Add a fixed
# one to tests/fuzz/corpus/<target>/ so the replay test keeps it fixed.
# Exit status: 0 when no target found anything, 1 otherwise.
set -uo pipefail
RUN_SECONDS=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
ALL=(compile_database nvcc_command config_file baseline trace suppression index_entry
     shard_part)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")

command -v clang++-22 >/dev/null || { echo "fuzz: needs clang++-22" >&2; exit 2; }
ls /usr/lib/llvm-22/lib/clang/22/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 ||
  { echo "fuzz: libFuzzer missing (Debian: libclang-rt-22-dev; scripts/install-deps.sh)" >&2; exit 2; }
launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "${launcher[@]}" \
  -DSTREAMLINT_FUZZ=ON -DSTREAMLINT_SANITIZE=address,undefined \
  -DSTREAMLINT_BUILD_TESTS=OFF -DSTREAMLINT_BUILD_PROBE=OFF >/dev/null || exit 2
build_targets=()
for target in "${TARGETS[@]}"; do
  if [ "$target" = cli ]; then build_targets+=(streamlint); else build_targets+=("fuzz_$target"); fi
done
cmake --build "$BUILD" -j "${JOBS:-2}" --target "${build_targets[@]}" || exit 2

found=0
printf '%-18s %8s %12s %8s %8s %s\n' target seconds executions corpus found artifacts
for target in "${TARGETS[@]}"; do
  corpus=$BUILD/fuzz-corpus/$target artifacts=$BUILD/fuzz-artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  log=$BUILD/fuzz-$target.log
  start=$(date +%s)
  if [ "$target" = cli ]; then
    "$ROOT/tests/fuzz/cli_fuzz.sh" "$BUILD/bin/streamlint" "$RUN_SECONDS" "$artifacts" >"$log" 2>&1
    count=$(find "$artifacts" -name why | wc -l)
    [ "$count" -gt 0 ] && found=1
    printf '%-18s %8s %12s %8s %8s %s\n' cli $(( $(date +%s) - start )) \
      "$(grep -o '[0-9]* runs' "$log" | grep -o '[0-9]*')" - "$count" "$artifacts"
    continue
  fi
  # -rss_limit_mb: a reader that needs GBs for a small input is a finding too.
  "$BUILD/bin/fuzz_$target" "$corpus" "$ROOT/tests/fuzz/corpus/$target" \
    -max_total_time="$RUN_SECONDS" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
  elapsed=$(( $(date +%s) - start ))
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  count=$(find "$artifacts" -type f | wc -l)
  [ "$count" -gt 0 ] && found=1
  printf '%-18s %8s %12s %8s %8s %s\n' "$target" "$elapsed" "${runs:-?}" \
    "$(find "$corpus" -type f | wc -l)" "$count" "$artifacts"
done
exit $found
