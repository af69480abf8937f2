#!/usr/bin/env bash
# Every reader of outside input is bounded (issue 23, 8) and a shard writes
# where -o points without replacing what is there (issue 23, 6): an index
# entry nested 2,000,000 deep, linked to /dev/zero or replaced by a FIFO is
# rebuilt with a note (no crash, no hang, no out of memory); a shard part
# nested 200,000 deep or claiming 4294967295 shards is an error naming it;
# --shard counts are capped with a short message; a trace, baseline or config
# that is a FIFO or a device is an error, not a hang; --shard -o through a
# symbolic link keeps the link, and -o onto a device (/dev/null) stays it.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
P=$WORK/project
mkdir -p "$P"
cp "$SRC/testdata/checks/device-sync.cu" "$SRC/testdata/checks/alloc-in-loop.cu" "$P/"
stub_database "$P"
cd "$P" || exit 1
"$STREAMLINT" -p . --no-cache --format json -o "$WORK/reference.json" 2>/dev/null
deep() { python3 -c "import sys; sys.stdout.write('[' * $1)"; }

# Index entries.
"$STREAMLINT" -p . --format json >/dev/null 2>&1
entries=($(find .streamlint/entries -name '*.json' | sort))
[ ${#entries[@]} = 2 ] || fail "expected 2 entries, found ${#entries[@]}"
damage_entries() {
  (printf 'streamlint-hmac-sha256 0\n'; deep 2000000) >"${entries[0]}"
  rm -f "${entries[1]}"; ln -s /dev/zero "${entries[1]}"
}
damage_entries
expect_exit 1 "entries nested deep and linked to /dev/zero" -- \
  timeout 120 "$STREAMLINT" -p . --format json -o "$WORK/damaged.json"
cmp -s "$WORK/reference.json" "$WORK/damaged.json" || fail "report over damaged entries differs"
expect_stderr "not a regular file (a character device)"
rm -f "${entries[0]}"; mkfifo "${entries[0]}"
expect_exit 1 "an entry replaced by a FIFO" -- timeout 60 "$STREAMLINT" -p . --format json -o "$WORK/over-fifo.json"
expect_stderr "not a regular file (a FIFO)"
cmp -s "$WORK/reference.json" "$WORK/over-fifo.json" || fail "report over a FIFO entry differs"

# Shard parts and counts.
expect_exit 2 "--shard=7/4294967295" -- "$STREAMLINT" -p . --shard=7/4294967295 -o "$WORK/x.json"
expect_stderr "at most 1000 shards"
expect_exit 2 "--shard=1/100000" -- "$STREAMLINT" -p . --shard=1/100000 -o "$WORK/x.json"
[ "$(wc -c <"$WORK/err")" -lt 300 ] || fail "--shard error is $(wc -c <"$WORK/err") bytes long"
"$STREAMLINT" -p . --shard=1/2 -o "$WORK/part-1.json" 2>/dev/null
"$STREAMLINT" -p . --shard=2/2 -o "$WORK/part-2.json" 2>/dev/null
sed -i 's/"count":2,/"count":100000,/' "$WORK/part-1.json"
expect_exit 2 "a part claiming 100000 shards" -- "$STREAMLINT" -p . --merge-shards "$WORK/part-1.json"
[ "$(wc -c <"$WORK/err")" -lt 600 ] || fail "the merge error is $(wc -c <"$WORK/err") bytes long"
(printf 'streamlint-hmac-sha256 0\n'; deep 200000) >"$WORK/deep.json"
expect_exit 2 "a part nested 200,000 deep" -- "$STREAMLINT" -p . --merge-shards "$WORK/deep.json" "$WORK/part-2.json"
expect_stderr "deep.json: cannot read the shard part: nested more than 512 levels deep"
mkfifo "$WORK/fifo.json"
expect_exit 2 "a part that is a FIFO" -- timeout 60 "$STREAMLINT" -p . --merge-shards "$WORK/fifo.json" "$WORK/part-2.json"
expect_stderr "fifo.json: cannot read the shard part: not a regular file (a FIFO)"

# Traces, baselines, configs: a FIFO or a device is an error, never a hang.
expect_exit 2 "--trace /dev/zero" -- timeout 60 "$STREAMLINT" -p . --no-cache --trace /dev/zero
expect_stderr "/dev/zero: cannot read the trace: not a regular file (a character device)"
expect_exit 2 "--baseline FIFO" -- timeout 60 "$STREAMLINT" -p . --no-cache --baseline "$WORK/fifo.json"
expect_stderr "not a regular file (a FIFO)"
deep 100000 >"$WORK/deep-trace.json"
expect_exit 2 "a trace nested deep" -- "$STREAMLINT" -p . --no-cache --trace "$WORK/deep-trace.json"
expect_stderr "nested more than 512 levels deep"
mkfifo .streamlint.yaml
expect_exit 2 "a config that is a FIFO" -- timeout 60 "$STREAMLINT" -p . --no-cache
expect_stderr ".streamlint.yaml: cannot read config file: not a regular file (a FIFO)"
rm -f .streamlint.yaml

# --shard -o writes through a link and onto a device in place.
echo old >"$WORK/target.json"
ln -s "$WORK/target.json" "$WORK/link.json"
expect_exit 0 "--shard -o a symbolic link" -- "$STREAMLINT" -p . --shard=1/1 -o "$WORK/link.json"
[ -L "$WORK/link.json" ] || fail "the link was replaced by a file"
grep -q streamlint-shard "$WORK/target.json" || fail "the link's target was not written"
# A device node of our own (replacing /dev/null itself would break the
# machine if this regressed); mknod needs root, as CI runs.
if mknod "$WORK/null" c 1 3 2>/dev/null; then
  expect_exit 0 "--shard -o a device" -- "$STREAMLINT" -p . --shard=1/1 -o "$WORK/null"
  [ -c "$WORK/null" ] || fail "the device node was replaced by a file"
fi
finish
