#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ (SANITIZE_BUILD_DIR) and runs the whole test suite there
# (docs/robustness.md). Not part of scripts/test.sh: on 2 cores the build
# alone takes far longer than the regular one; run it before a release, after
# touching a reader of outside input, or on a nightly job.
#
#   scripts/sanitize.sh [ctest arguments...]     e.g. scripts/sanitize.sh -R fuzz_replay
#
# Every sanitizer report is fatal (-fno-sanitize-recover=all) and fails its
# test. Tests that crash a TU on purpose set their own ASAN_OPTIONS
# (tests/driver, tests/e2e/bad_input.sh). Exit status: ctest's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${SANITIZE_BUILD_DIR:-$ROOT/build-asan}
JOBS=${JOBS:-$(nproc)}
launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -G Ninja "${launcher[@]}" \
  -DSTREAMLINT_SANITIZE="${STREAMLINT_SANITIZE:-address,undefined}" >/dev/null
cmake --build "$BUILD" -j "$JOBS"
# Symbolized stacks in reports; UBSan's too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS" "$@"
