#!/usr/bin/env bash
# Reproduces the parse-rate figure of docs/compile-database.md.
# Usage: run-parse-rate.sh <extracted CUDALibrarySamples checkout> <work-dir> \
#          [path to streamlint-parse-rate] [library-dir...]
# Fetches nothing. Steps: configure the samples with CMake + nvcc
# (generate-compile-db.sh), translate every entry with streamlint's compiledb
# library and parse it with clang++-22 (streamlint-parse-rate), then run each
# failing TU's original command: a TU its own compiler rejects too (a sample
# needing a newer library than the installed toolkit) is not a translation
# failure and is reported apart.
set -u
here=$(cd "$(dirname "$0")" && pwd)
checkout=$1; work=$(realpath -m "$2"); shift 2
tool=${1:-$here/../../build/bin/streamlint-parse-rate}; [ $# -gt 0 ] && shift
[ -x "$tool" ] || { echo "build streamlint-parse-rate first (ninja -C build streamlint-parse-rate)" >&2; exit 2; }
mkdir -p "$work"
db="$work/compile_commands.json"
if [ -s "$db" ]; then
  echo "reusing $db (delete it to configure the samples again)"
else
  "$here/generate-compile-db.sh" "$checkout" "$work" "$@" || exit 2
fi
"$tool" "$db" > "$work/parse-rate.txt"
total=$(jq length "$db")
clean=$(grep -oP '^parsed cleanly: \K[0-9]+' "$work/parse-rate.txt")

# Failures: does the sample's own compiler accept the TU?
: > "$work/failures-own-compiler-too.txt"; : > "$work/failures-translation.txt"
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
grep '^FAIL ' "$work/parse-rate.txt" | sed 's/^FAIL  //' | while IFS= read -r file; do
  entry=$(jq -c --arg f "$file" 'first(.[] | select(.file == $f))' "$db")
  dir=$(jq -r .directory <<<"$entry")
  cmd=$(jq -r .command <<<"$entry" | sed -E "s# -o [^ ]+# -o $scratch/out.o#")
  if (cd "$dir" && eval "$cmd") > "$scratch/log" 2>&1; then
    echo "$file" >> "$work/failures-translation.txt"
  else
    echo "$file: $(grep -m1 -E 'error' "$scratch/log")" >> "$work/failures-own-compiler-too.txt"
  fi
done
own=$(wc -l < "$work/failures-own-compiler-too.txt")
ours=$(wc -l < "$work/failures-translation.txt")
accepted=$((total - own))
echo "TUs: $total; parse cleanly after translation: $clean"
echo "failing with their own compiler too (not translation): $own"
echo "failing only after translation: $ours (list: $work/failures-translation.txt)"
awk -v c="$clean" -v a="$accepted" -v t="$total" 'BEGIN {
  printf "clean rate over TUs their own compiler accepts: %d/%d = %.1f%%\n", c, a, 100*c/a;
  printf "clean rate over all TUs: %d/%d = %.1f%%\n", c, t, 100*c/t }'
