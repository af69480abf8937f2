#!/usr/bin/env bash
# The project index on a real compile database, all figures from this one
# invocation (ratios against the cold run measured here): cold, warm on an
# unchanged tree, one .cu edited, one widely included header edited, a named
# file with a warm index vs the same file alone, the -j speed-up (a cold -j1
# run), CI shards (2 shards of -j1 side by side, then --merge-shards, against
# the cold -jJOBS run; the merged report must equal it), peak memory. Never writes to
# the project: the edited .cu is a copy (its entry points at it, `-iquote`
# keeps its includes) and the header lives in a copy of INCLUDE_DIR that every
# entry's -I is redirected to.
#
# Usage: run_index_bench.sh <compile_commands.json> [streamlint]
#   SAMPLE=N       every Nth entry (default 1: all)
#   JOBS=N         -j for every run (default 2)
#   INCLUDE_DIR=D  a -I directory of the project to copy and redirect
#   HEADER=F       a file in INCLUDE_DIR to edit (its includers re-analyzed)
#   SPEEDUP=0      skip the cold -j1 run and the shards (the slowest part)
# Example (NVIDIA/cuda-samples, configure-only database):
#   SAMPLE=4 INCLUDE_DIR=/src/cuda-samples/Common HEADER=helper_string.h \
#     bench/index/run_index_bench.sh /src/cuda-samples/build/compile_commands.json
set -u
db=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
streamlint=$(realpath "${2:-$here/../../build/bin/streamlint}")
SAMPLE=${SAMPLE:-1}; JOBS=${JOBS:-2}; SPEEDUP=${SPEEDUP:-1}
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/db" "$work/alone" "$work/touched"

# The sampled database; the first sampled .cu is the one edited.
jq --argjson n "$SAMPLE" '[to_entries[] | select(.key % $n == 0) | .value]' "$db" >"$work/sampled.json"
if [ -n "${INCLUDE_DIR:-}" ]; then
  cp -r "$INCLUDE_DIR" "$work/include-copy"
  jq --arg from "$INCLUDE_DIR" --arg to "$work/include-copy" \
    '[.[] | (if .command then .command |= (split("-I" + $from) | join("-I" + $to)) else . end)
          | (if .arguments then .arguments |= map(if . == "-I" + $from then "-I" + $to else . end) else . end)]' \
    "$work/sampled.json" >"$work/redirected.json"
  mv "$work/redirected.json" "$work/sampled.json"
fi
first=$(jq -r '[.[] | select(.file | endswith(".cu"))][0].file' "$work/sampled.json")
cp "$first" "$work/touched/"
copy="$work/touched/$(basename "$first")"
jq --arg from "$first" --arg to "$copy" --arg dir "$(dirname "$first")" \
  '[.[] | if .file == $from then
      (.file = $to
       | (if .command then .command |= (split(" " + $from) | join(" -iquote " + $dir + " " + $to)) else . end)
       | (if .arguments then .arguments |= (map(if . == $from then $to else . end) + ["-iquote", $dir]) else . end))
    else . end]' "$work/sampled.json" >"$work/db/compile_commands.json"
jq --arg f "$copy" '[.[] | select(.file == $f)]' "$work/db/compile_commands.json" \
  >"$work/alone/compile_commands.json"
units=$(jq length "$work/db/compile_commands.json")

# run NAME ARGS...: wall seconds in $work/NAME.time, peak KiB in NAME.mem;
# -j$J (default JOBS), the report in FORMAT (default json).
run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f %M -o "$work/$name.mem" "$streamlint" -j "${J:-$JOBS}" \
    --format "${FORMAT:-json}" -o "$work/$name.json" "$@" 2>"$work/$name.err"
  end=$(date +%s.%N)
  echo "$end - $start" | bc >"$work/$name.time"
}
t() { cat "$work/$1.time"; }
mib() { echo $(( $(tail -1 "$work/$1.mem") / 1024 )); } # time -f %M: KiB, last line
from_index() { grep -o '[0-9]* TU result(s) from the index' "$work/$1.err" | cut -d' ' -f1 | grep . || echo 0; }
ratio() { echo "scale=3; $1 / $2" | bc; }

run cold -p "$work/db"
run warm -p "$work/db"
cmp -s "$work/cold.json" "$work/warm.json" && same=yes || same=NO
FORMAT=sarif run warmsarif -p "$work/db"
if [ "$SPEEDUP" = 1 ]; then
  J=1 run cold1 -p "$work/db" --cache-dir "$work/cache-j1"
  # Two CI shards of one core each, side by side, each with its own index
  # (as two CI jobs have), then the merge step.
  start=$(date +%s.%N)
  for i in 1 2; do
    /usr/bin/time -f %M -o "$work/shard$i.mem" "$streamlint" -j 1 -p "$work/db" \
      --cache-dir "$work/cache-shard$i" --shard=$i/2 -o "$work/part$i.json" \
      2>"$work/shard$i.err" &
  done
  wait
  echo "$(date +%s.%N) - $start" | bc >"$work/shards.time"
  run merge -p "$work/db" --merge-shards "$work/part1.json" "$work/part2.json"
  FORMAT=sarif run mergesarif -p "$work/db" --merge-shards "$work/part1.json" "$work/part2.json"
  cmp -s "$work/cold.json" "$work/merge.json" && merged_same=yes || merged_same=NO
  cmp -s "$work/warmsarif.json" "$work/mergesarif.json" && merged_sarif=yes || merged_sarif=NO
fi
echo "// edited by run_index_bench.sh" >>"$copy"
run cu -p "$work/db"
run alone -p "$work/alone" --no-cache
run named -p "$work/db" "$copy"
if [ -n "${HEADER:-}" ]; then
  echo "// edited by run_index_bench.sh" >>"$work/include-copy/$HEADER"
  run header -p "$work/db"
fi

echo "database: $db (every ${SAMPLE}th entry: $units TUs), -j$JOBS, $(nproc) cores"
echo "streamlint: $streamlint"
printf 'cold                      %7.2f s  (peak %d MiB)\n' "$(t cold)" "$(mib cold)"
printf 'warm, unchanged tree      %7.2f s  = %s of cold (peak %d MiB); %s of %s TUs from the index; same report: %s\n' \
  "$(t warm)" "$(ratio "$(t warm)" "$(t cold)")" "$(mib warm)" "$(from_index warm)" "$units" "$same"
printf 'one .cu edited            %7.2f s  = %s of cold; that TU alone (no index) %.2f s; overhead beyond it %s of cold\n' \
  "$(t cu)" "$(ratio "$(t cu)" "$(t cold)")" "$(t alone)" "$(ratio "$(echo "$(t cu) - $(t alone)" | bc)" "$(t cold)")"
if [ "$SPEEDUP" = 1 ]; then
  printf 'cold at -j1               %7.2f s  (peak %d MiB): -j%s is %s times faster\n' \
    "$(t cold1)" "$(mib cold1)" "$JOBS" "$(ratio "$(t cold1)" "$(t cold)")"
  both=$(echo "$(t shards) + $(t merge)" | bc)
  printf '2 shards of -j1 + merge   %7.2f s  = %s of cold -j%s (shards %.2f s side by side, peaks %d/%d MiB; merge %.2f s, peak %d MiB); merged report same as cold: JSON %s, SARIF %s\n' \
    "$both" "$(ratio "$both" "$(t cold)")" "$JOBS" "$(t shards)" "$(mib shard1)" "$(mib shard2)" \
    "$(t merge)" "$(mib merge)" "$merged_same" "$merged_sarif"
fi
printf 'named file, warm index    %7.2f s  = %s of the same file alone without the index (%.2f s)\n' \
  "$(t named)" "$(ratio "$(t named)" "$(t alone)")" "$(t alone)"
if [ -n "${HEADER:-}" ]; then
  printf 'header %-18s %7.2f s  = %s of cold; %s of %s TUs re-analyzed\n' "$HEADER" \
    "$(t header)" "$(ratio "$(t header)" "$(t cold)")" "$(( units - $(from_index header) ))" "$units"
fi
