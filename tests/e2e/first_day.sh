#!/usr/bin/env bash
# Issue 22, a user's first day and CI's every day: no silent green run,
# progress and the summary, PR-sized output (--min-severity,
# --warnings-as-errors, --diff-base/--diff-file), --list-checks,
# --write-baseline's exit code, NO_COLOR/TERM=dumb, --version, the fix root
# outside a checkout (CMake's source directory), error messages.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
lacks_stdout() { ! grep -qF -- "$1" "$WORK/out" || fail "stdout has '$1'"; }
lacks_stderr() { ! grep -qF -- "$1" "$WORK/err" || fail "stderr has '$1'"; }

P=$WORK/proj
mkdir -p "$P/src" "$P/include"
cat >"$P/include/h.cuh" <<'CU'
#include <cuda_runtime.h>
inline void headerSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/src/a.cu" <<'CU'
#include "../include/h.cuh"
void loopSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
void copyBack(float *h, const float *d, size_t n) { cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }
void quiet(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); } // NOLINT
CU
cat >"$P/src/b.cu" <<'CU'
#include "../include/h.cuh"
void other(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
stub_database "$P/src"
# A checkout, as a user's project is: include/ beside src/ is the project's own
# (outside any checkout and CMake tree it would be a third party's header).
git init -q "$P"
cd "$P" || exit 1
run() { expect_exit "$1" "$2" -- "$STREAMLINT" -p src --use-color=false "${@:3}"; }

# 1. No silent green run (exit 2, naming the pattern).
run 2 "--checks= (an unset variable)" --checks=
expect_stderr "streamlint: error: --checks is empty: no checks enabled"
run 2 "--checks='-*'" --checks='-*'
expect_stderr "no checks enabled: Checks '-*' selects none of the"
run 2 "a typo" --checks='-*,device-snyc'
expect_stderr "--checks: 'device-snyc' matches no check"
run 2 "a negative typo" --checks='*,-devise-sync'
expect_stderr "'-devise-sync' matches no check"
run 2 "--warnings-as-errors typo" --warnings-as-errors=device-snyc
expect_stderr "--warnings-as-errors: 'device-snyc' matches no check"
run 0 "--allow-no-checks" --checks='-*' --allow-no-checks
expect_exit 2 "--list-checks with no check enabled" -- "$STREAMLINT" --list-checks --checks='-*'
expect_stderr "no checks enabled"

# 2. The summary: per-check counts, TUs parsed and from the index, time, hidden.
run 1 "cold run"
expect_stderr "in 2 translation unit(s); 2 parsed; "
expect_stderr "  device-sync: 3 warning(s), 1 note(s)"
expect_stderr "  not reported: 1 by NOLINT"
lacks_stderr "[1/2]"   # stderr is no terminal: no progress by default
run 1 "warm run"
expect_stderr "2 TU result(s) from the index; 0 parsed; "
run 1 "--progress forces progress lines" --progress
expect_stderr "[1/2] src/"
expect_stderr "[2/2] src/"
expect_stderr "(from the index)"
run 1 "header filter counted" --header-filter=nothing
expect_stderr "1 outside the header filter or in ExcludePaths"
lacks_stdout "h.cuh"
# A named header reported through the TUs that include it says so.
run 1 "named header" include/h.cuh
expect_stderr "in 2 translation unit(s)"
expect_stdout "include/h.cuh:2:"
# Progress on a terminal by default (script gives the run one).
if command -v script >/dev/null; then
  script -qec "'$STREAMLINT_BINARY' -p src --no-cache -j 1" /dev/null >"$WORK/tty.txt" 2>&1
  grep -q "\[2/2\] src/" "$WORK/tty.txt" || fail "no progress on a terminal: $(cat "$WORK/tty.txt")"
  NO_COLOR=1 script -qec "'$STREAMLINT_BINARY' -p src" /dev/null >"$WORK/tty.txt" 2>&1
  grep -q $'\e\[' "$WORK/tty.txt" && fail "NO_COLOR: colors on a terminal"
  TERM=dumb script -qec "'$STREAMLINT_BINARY' -p src" /dev/null >"$WORK/tty.txt" 2>&1
  grep -q $'\e\[' "$WORK/tty.txt" && fail "TERM=dumb: colors on a terminal"
  TERM=xterm script -qec "'$STREAMLINT_BINARY' -p src" /dev/null >"$WORK/tty.txt" 2>&1
  grep -q $'\e\[' "$WORK/tty.txt" || fail "no colors on a terminal without NO_COLOR"
  script -qec "'$STREAMLINT_BINARY' -p src --progress=false" /dev/null >"$WORK/tty.txt" 2>&1
  grep -q "\[1/2\]" "$WORK/tty.txt" && fail "--progress=false: progress on a terminal"
fi

# 3. PR-sized output.
run 1 "--min-severity=warning drops the note" --min-severity=warning
lacks_stdout "src/a.cu:3:"; expect_stdout "src/a.cu:2:"
expect_stderr "1 below the minimum severity"
run 0 "--min-severity=error: warnings neither reported nor failing" --min-severity=error
lacks_stdout "warning:"
run 1 "--warnings-as-errors with --min-severity=error" --warnings-as-errors='device-*' --min-severity=error
expect_stdout "src/a.cu:2:"; expect_stdout "error: "
expect_stderr "streamlint: 3 error(s), 0 warning(s), 0 note(s) in 2 translation unit(s)"
expect_stderr "  device-sync: 3 error(s)"
run 2 "bad --min-severity" --min-severity=warn
expect_stderr "--min-severity 'warn': expected note, warning or error"
printf "MinSeverity: warning\nWarningsAsErrors: 'device-sync'\n" >"$P/.streamlint.yaml"
run 1 "MinSeverity and WarningsAsErrors in the config"
lacks_stdout "src/a.cu:3:"; expect_stdout "src/a.cu:2:52: error: "
run 1 "--min-severity wins over MinSeverity" --min-severity=note
expect_stdout "src/a.cu:3:53: note: "
rm "$P/.streamlint.yaml"

git init -q && git add -A && git commit -qm base
sed -i 's/void other(int n)/void other(long n)/' src/b.cu
run 1 "--diff-base HEAD: only the changed line" --diff-base=HEAD
expect_stdout "src/b.cu:2:"; lacks_stdout "src/a.cu"; lacks_stdout "h.cuh"
expect_stderr "not on a changed line"
git diff -U0 >"$WORK/change.diff"
run 1 "--diff-file" --diff-file="$WORK/change.diff"
expect_stdout "src/b.cu:2:"; lacks_stdout "src/a.cu"
expect_exit 1 "--diff-file=- (stdin)" -- sh -c "git diff | '$STREAMLINT' -p src --diff-file=-"
expect_stdout "src/b.cu:2:"; lacks_stdout "src/a.cu"
git checkout -q src/b.cu
run 0 "--diff-base HEAD with no change: nothing" --diff-base=HEAD
run 2 "--diff-base of a revision that does not exist" --diff-base=no-such-rev
expect_stderr "--diff-base 'no-such-rev'"
printf 'garbage\n@@ -1 +1 @@\n' >"$WORK/bad.diff"
run 2 "a malformed diff" --diff-file="$WORK/bad.diff"
expect_stderr "$WORK/bad.diff:2: hunk before any '+++ file' line"
run 2 "--diff-base and --diff-file" --diff-base=HEAD --diff-file="$WORK/change.diff"

# 4. --list-checks honours the selection; JSON.
expect_exit 0 "--list-checks" -- "$STREAMLINT" --list-checks --checks='-*,device-sync'
expect_stdout "device-sync: "; lacks_stdout "default-stream"
expect_exit 0 "--list-checks --format json" -- "$STREAMLINT" --list-checks --format json
python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); assert len(l) >= 6 and all({"id","description","severity","help_uri"} <= set(c) for c in l)' \
  "$WORK/out" || fail "--list-checks --format json: $(head -5 "$WORK/out")"
printf "Checks: '-*,alloc-in-loop'\n" >"$P/.streamlint.yaml"
expect_exit 0 "--list-checks with a config" -- "$STREAMLINT" --list-checks
expect_stdout "alloc-in-loop: "; lacks_stdout "device-sync"
rm "$P/.streamlint.yaml"

# 5. --write-baseline exits 0 when it wrote findings.
run 0 "--write-baseline" --write-baseline "$WORK/base.json"
[ -s "$WORK/base.json" ] || fail "--write-baseline wrote nothing"
run 0 "--baseline hides them" --baseline "$WORK/base.json"
expect_stderr "4 in the baseline"

# 6. --version; errors without the binary's path.
expect_exit 0 "--version" -- "$STREAMLINT" --version
expect_stdout "(commit "; expect_stdout "built with LLVM 22."
expect_exit 2 "unknown option" -- "$STREAMLINT" --no-such-option
expect_stderr "streamlint: error: Unknown command line argument '--no-such-option'"
lacks_stderr "$(dirname "$STREAMLINT_BINARY")"

# 7. Outside a checkout, fixes may write anywhere in CMake's source
#    directory, and the dry-run diff applies from it.
rm -rf .git
C=$WORK/cmakeproj
mkdir -p "$C/src" "$C/include" "$C/build"
cat >"$C/include/k.cuh" <<'CU'
#include <cuda_runtime.h>
#include <stdlib.h>
inline void upload(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  free(h);
}
CU
printf '#include "../include/k.cuh"\nvoid run(float *x, cudaStream_t s) { upload(x, 4, s); }\n' >"$C/src/main.cu"
stub_database "$C/src"
mv "$C/src/compile_commands.json" "$C/build/"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$C" >"$C/build/CMakeCache.txt"
cd "$C" || exit 1
expect_exit 1 "dry run from the CMake source directory" -- "$STREAMLINT" -p build --fix-dry-run --checks='-*,pageable-memcpy-async'
lacks_stderr "outside"
grep -q "^+++ b/include/k.cuh" "$WORK/out" || fail "the dry-run diff does not fix include/k.cuh from $C: $(cat "$WORK/out") $(cat "$WORK/err")"
cp "$WORK/out" "$WORK/fix.diff"
patch -p1 --dry-run <"$WORK/fix.diff" >/dev/null || fail "the dry-run diff does not apply from $C"
finish
