#!/usr/bin/env bash
# The command-line fuzzer: runs streamlint as a user (or a CI job) would,
# with random options and damaged inputs (a Latin-1 byte in a source, index
# entries and shard parts truncated, garbled, nested deep or replaced by a
# FIFO or a link to /dev/zero, made-up traces, configs and baselines,
# reports written to a full device), and fails on what no input may cause:
#   - an exit status outside 0-4, or death by a signal;
#   - "internal error" (streamlint's own code failed: a bug, never input);
#   - an LLVM fatal error, "terminate called", a sanitizer report;
#   - "clang crashed" (the inputs are stub-header tests clang parses fine);
#   - no answer within 120 s.
#
#   tests/fuzz/cli_fuzz.sh STREAMLINT SECONDS ARTIFACTS [SEED]
#
# Each failing run's command, inputs and output are kept under ARTIFACTS/.
# Exit status: 0 when no run failed, 1 otherwise.
set -uo pipefail
STREAMLINT=${1:?usage: cli_fuzz.sh STREAMLINT SECONDS ARTIFACTS [SEED]}
SECONDS_TO_RUN=${2:?seconds}
ARTIFACTS=${3:?artifact directory}
RANDOM=${4:-$$}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STUB=$ROOT/testdata/stub
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ARTIFACTS"

pick() { local options=("$@"); printf '%s' "${options[RANDOM % ${#options[@]}]}"; }

# A fresh project: a few check inputs (one cross-TU directory among them)
# and their compile database, with the stub CUDA headers.
new_project() {
  rm -rf "$WORK/p"
  mkdir -p "$WORK/p"
  local inputs=("$ROOT"/testdata/checks/*.cu)
  for _ in 1 2 3; do
    cp "${inputs[RANDOM % ${#inputs[@]}]}" "$WORK/p/" 2>/dev/null
  done
  cp -r "$ROOT/testdata/checks/alloc-in-loop-cross-tu" "$WORK/p/cross"
  local flags="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
  { echo "["; local first=1
    for f in $(cd "$WORK/p" && find . -name '*.cu' | sort); do
      [ $first = 1 ] || echo ","; first=0
      printf ' {"directory": "%s", "file": "%s", "command": "clang++ %s -c %s"}' \
        "$WORK/p" "$WORK/p/${f#./}" "$flags" "$WORK/p/${f#./}"
    done
    echo "]"; } >"$WORK/p/compile_commands.json"
}

# Damages one file in place, one of several ways.
damage() {
  local file=$1 size
  [ -f "$file" ] || return 0
  size=$(stat -c %s "$file")
  case $((RANDOM % 9)) in
    0) head -c $((RANDOM % (size + 1))) "$file" >"$file.tmp" && mv "$file.tmp" "$file" ;;
    1) printf '\xe9\xff\x00' | dd of="$file" bs=1 seek=$((RANDOM % (size + 1))) conv=notrunc status=none ;;
    2) python3 -c 'import sys; print("[" * 300000)' >"$file" ;;
    3) rm -f "$file"; mkfifo "$file" ;;
    4) rm -f "$file"; ln -s /dev/zero "$file" ;;
    5) printf '{"format": 1e999, "shard": -1, "count": 4294967295}' >"$file" ;;
    6) sed -i 's/"line":[0-9]*/"line":0/; s/"fileDigest":"[0-9a-f]*"/"fileDigest":""/' "$file" ;;
    7) head -c 2000 /dev/urandom >"$file" ;;
    8) : ;;
  esac
}

# A Latin-1 byte in a comment at the end of a random line of a source.
latin1_source() {
  local files=("$WORK"/p/*.cu "$WORK"/p/cross/*.cu) file lines
  file=${files[RANDOM % ${#files[@]}]}
  lines=$(wc -l <"$file")
  sed -i "$((1 + RANDOM % (lines > 0 ? lines : 1)))s|\$| /* donn\xe9es */|" "$file"
}

random_config() {
  case $((RANDOM % 4)) in
    0) printf 'Checks: "-*,default-stream"\nCheckOptions:\n  default-stream.PerThreadDefaultStream: note\n' ;;
    1) printf 'Checks: [%s\n' "$(head -c 300 /dev/urandom | tr -dc 'a-z,{}[]')" ;;
    2) printf 'ExcludePaths: ["\xe9*", "cross/*"]\n' ;;
    3) python3 -c 'print("Checks: " + "[" * 2000)' ;;
  esac >"$WORK/p/.streamlint.yaml"
}

random_trace() {
  local file=$(pick /etc/passwd "$WORK/p/cross/a.cu" "$WORK/fifo" "/nonexistent/x.cu")
  printf '{"format": "streamlint-trace", "version": 1, "program": "x", "exit_status": 0, "processes": 1, "dropped_calls": 0, "observations": [{"check": "device-sync", "api": "cudaDeviceSynchronize", "file": "%s", "line": %d, "function": "f", "calls": 3, "misuses": 3}]}' \
    "$file" $((RANDOM % 40))
}

OPTIONS=(--format=text --format=json --format=sarif --format=github --format=gitlab
         -j1 -j2 --no-cache --quiet --strict --all-translation-units
         --partial-analysis=warn --fix-dry-run "--checks=-*,alloc-in-loop"
         "--checks=*" --color=always)

runs=0 failed=0
start=$(date +%s)
mkfifo "$WORK/fifo"
# Devices of our own to write reports to: a regression that replaced the
# output file would otherwise replace the machine's /dev/full or /dev/null.
FULL=$WORK/fifo-missing/x NULL_DEVICE=$WORK/report.out
mknod "$WORK/full" c 1 7 2>/dev/null && FULL=$WORK/full
mknod "$WORK/null" c 1 3 2>/dev/null && NULL_DEVICE=$WORK/null
while [ $(( $(date +%s) - start )) -lt "$SECONDS_TO_RUN" ]; do
  runs=$((runs + 1))
  new_project
  [ $((RANDOM % 3)) = 0 ] && latin1_source
  [ $((RANDOM % 4)) = 0 ] && random_config
  args=(-p "$WORK/p")
  for _ in $(seq $((RANDOM % 4))); do args+=("$(pick "${OPTIONS[@]}")"); done
  # A first run fills the index (or writes shard parts) that the second reads.
  case $((RANDOM % 3)) in
    0) "$STREAMLINT" "${args[@]}" >/dev/null 2>&1
       for entry in $(find "$WORK/p/.streamlint/entries" -name '*.json' 2>/dev/null | shuf -n 2 --random-source=<(yes $RANDOM)); do
         damage "$entry"
       done ;;
    1) count=$((1 + RANDOM % 3))
       for i in $(seq "$count"); do
         "$STREAMLINT" -p "$WORK/p" --shard="$i/$count" -o "$WORK/part-$i.json" >/dev/null 2>&1
       done
       damage "$WORK/part-$((1 + RANDOM % count)).json"
       args+=(--merge-shards "$WORK"/part-*.json) ;;
    2) : ;;
  esac
  case $((RANDOM % 6)) in
    0) random_trace >"$WORK/run.trace"; args+=(--trace "$WORK/run.trace") ;;
    1) args+=(-o "$(pick "$FULL" "$WORK/report.out" "$NULL_DEVICE" "$WORK/fifo-missing/x")") ;;
    2) args+=(--write-baseline "$(pick "$WORK/base.json" "$FULL")") ;;
    3) "$STREAMLINT" -p "$WORK/p" --format=json -o "$WORK/base.json" >/dev/null 2>&1
       damage "$WORK/base.json"; args+=(--baseline "$WORK/base.json") ;;
    4) args+=(--export-fixes "$(pick "$WORK/fixes.yaml" "$FULL")") ;;
    5) : ;;
  esac
  timeout -k 5 120 "$STREAMLINT" "${args[@]}" >"$WORK/out" 2>"$WORK/err" </dev/null
  status=$?
  why=""
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then why="no answer within 120 s"
  elif [ "$status" -gt 4 ]; then why="exit status $status"
  elif grep -qE 'internal error|LLVM ERROR|terminate called|Sanitizer|runtime error:|clang crashed' "$WORK/err"; then
    why=$(grep -m1 -E 'internal error|LLVM ERROR|terminate called|Sanitizer|runtime error:|clang crashed' "$WORK/err")
  fi
  rm -f "$WORK"/part-*.json
  if [ -n "$why" ]; then
    failed=$((failed + 1))
    case_dir=$ARTIFACTS/case-$runs
    mkdir -p "$case_dir"
    printf '%q ' "$STREAMLINT" "${args[@]}" >"$case_dir/command"
    echo "$why" >"$case_dir/why"
    cp "$WORK/out" "$WORK/err" "$case_dir/" 2>/dev/null
    tar -C "$WORK" -cf "$case_dir/project.tar" p 2>/dev/null
    echo "cli_fuzz: run $runs failed: $why (kept in $case_dir)" >&2
  fi
done
echo "cli_fuzz: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
