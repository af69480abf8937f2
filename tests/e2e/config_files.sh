#!/usr/bin/env bash
# .streamlint.yaml end to end: discovery per TU, precedence of the command
# line, header filter, excluded paths, --dump-config, and config errors.
. "$(dirname "$0")/lib.sh"

P=$WORK/proj
mkdir -p "$P/inc" "$P/sub" "$P/gen"
cat >"$P/inc/h.cuh" <<'CU'
#include <cuda_runtime.h>
inline void headerSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/a.cu" <<'CU'
#include "inc/h.cuh"
void mainSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/sub/b.cu" <<'CU'
#include <cuda_runtime.h>
void subSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cp "$P/sub/b.cu" "$P/gen/g.cu"
cat >"$P/compile_commands.json" <<JSON
[
 {"directory": "$P", "file": "a.cu", "command": "nvcc -x cu -c a.cu -o a.o"},
 {"directory": "$P/sub", "file": "b.cu", "command": "nvcc -x cu -c b.cu -o b.o"},
 {"directory": "$P/gen", "file": "g.cu", "command": "nvcc -x cu -c g.cu -o g.o"}
]
JSON
run() { expect_exit "$1" "$2" -- "$STREAMLINT" -p "$P" --use-color=false "${@:3}"; }
lacks_stdout() { ! grep -qF -- "$1" "$WORK/out" || fail "stdout has '$1'"; }
cd "$P" || exit 1

# device-sync reports a note or a warning depending on the check's version:
# learn the exit code a finding gives (1 for a warning, 0 for notes only).
"$STREAMLINT" -p "$P" >/dev/null 2>&1; F=$?
case $F in 0|1) ;; *) fail "first run: exit $F" ;; esac
run "$F" "no config: every finding"
expect_stdout "inc/h.cuh:2:"; expect_stdout "a.cu:2:"; expect_stdout "sub/b.cu:2:"

printf "Checks: '-*'\n" >"$P/.streamlint.yaml"
# Issue 22: a selection that enables no check anywhere is an error (it was
# a silent green run), naming the pattern and the file it came from.
run 2 "root config disables everything"
expect_stderr "no checks enabled: Checks '-*' (from $P/.streamlint.yaml)"
lacks_stdout "device-sync"
run 0 "--allow-no-checks: parse only" --allow-no-checks
lacks_stdout "device-sync"
printf "Checks: ''\n" >"$P/.streamlint.yaml"
run 2 "an empty Checks in a config file"
expect_stderr "$P/.streamlint.yaml:1:9: Checks: empty"
printf "Checks: '-*'\n" >"$P/.streamlint.yaml"
printf "InheritParentConfig: true\nChecks: 'device-sync'\n" >"$P/sub/.streamlint.yaml"
run "$F" "nearer config re-enables for sub/ only"
expect_stdout "sub/b.cu:2:"; lacks_stdout "a.cu:2:"; lacks_stdout "gen/g.cu"
run "$F" "--checks is appended to Checks" --checks=device-sync
expect_stdout "a.cu:2:"; expect_stdout "gen/g.cu:2:"
run 2 "--checks wins over the nearer config: nothing left" --checks=-device-sync
expect_stderr "no checks enabled: Checks '-*,-device-sync' (from $P/.streamlint.yaml)"
lacks_stdout "device-sync"

printf "HeaderFilterRegex: 'nothing-matches'\nExcludePaths: ['gen/*']\n" >"$P/.streamlint.yaml"
rm "$P/sub/.streamlint.yaml"
run "$F" "header filter drops header findings, ExcludePaths skips gen/"
expect_stdout "a.cu:2:"; lacks_stdout "h.cuh"; lacks_stdout "gen/g.cu"
expect_stderr "in 2 translation unit(s)"
run "$F" "--header-filter overrides HeaderFilterRegex" --header-filter='/inc/'
expect_stdout "inc/h.cuh:2:"
run 2 "bad --header-filter" --header-filter='('
expect_stderr "--header-filter '('"

run 0 "--dump-config" --dump-config a.cu
expect_stdout "# from $P/.streamlint.yaml"
expect_stdout "HeaderFilterRegex: 'nothing-matches'"
# Issue 22: globs relative to the directory the dump is for, so a committed
# dump works in every checkout.
expect_stdout "  - 'gen/*'"
cp "$WORK/out" "$P/dumped.yaml"
run "$F" "--config-file with the dumped config" --config-file "$P/dumped.yaml"
expect_stdout "a.cu:2:"; lacks_stdout "h.cuh"; lacks_stdout "gen/g.cu"
run 2 "missing --config-file" --config-file "$WORK/none.yaml"
expect_stderr "$WORK/none.yaml: cannot read config file"

printf "Checks: '*'\nHeaderFilter: 'x'\n" >"$P/.streamlint.yaml"
run 2 "unknown key"
expect_stderr "$P/.streamlint.yaml:2:1: HeaderFilter: unknown key"
printf "CheckOptions:\n  device-synk.Max: 3\n" >"$P/.streamlint.yaml"
run 2 "option of an unknown check"
expect_stderr "$P/.streamlint.yaml:2:3: CheckOptions: option 'device-synk.Max': no check named 'device-synk'"
printf "ExcludePaths: gen\n" >"$P/.streamlint.yaml"
run 2 "bad value"
expect_stderr "$P/.streamlint.yaml:1:15: ExcludePaths: expected a list"
printf "{}" >"$P/.streamlint.json"
run 2 "two config files in one directory"
expect_stderr "both .streamlint.yaml and .streamlint.json"
rm "$P/.streamlint.json"
printf "Checks: '-*,device-sync'\n" >"$P/.streamlint.yaml"

# A named header is analyzed through the TU that includes it (issue 12),
# with that TU's config (here: device-sync only); sources without an entry
# are skipped when asked.
run "$F" "named header is analyzed" inc/h.cuh
expect_stdout "inc/h.cuh:2:"; lacks_stdout "a.cu:2:"
run "$F" "--skip-files-not-in-database" --skip-files-not-in-database inc/h.cuh a.cu new.cu
expect_stderr "streamlint: skipped 1 file not in compile_commands.json: new.cu"
expect_stdout "inc/h.cuh:2:"; expect_stdout "a.cu:2:"
run 0 "only skipped files: nothing to do" --skip-files-not-in-database new.cu
expect_stderr "skipped 1 file not in"
finish
