#!/usr/bin/env bash
# scripts/new-check.sh on a copy of the source tree: it creates the check's
# files, registers it (sorted), refuses duplicates and bad ids, and both
# scaffolds (AST matchers, --call-graph) compile against the real headers
# with the flags CMake uses for the existing checks.
source "$(dirname "$0")/lib.sh"
BUILD=${STREAMLINT_BINARY_DIR:?set STREAMLINT_BINARY_DIR}
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }

tree="$WORK/tree"
mkdir -p "$tree"
(cd "$SRC" && tar -cf - checks docs/checks testdata/checks scripts analyzer/trace api) | tar -xf - -C "$tree"

expect_exit 0 "scaffold with matchers" -- "$tree/scripts/new-check.sh" library-stream
expect_stdout "created checks/LibraryStreamCheck.h"
expect_exit 0 "scaffold with the call graph" -- "$tree/scripts/new-check.sh" zz-reach-demo --call-graph
for file in checks/LibraryStreamCheck.h checks/LibraryStreamCheck.cpp docs/checks/library-stream.md \
            testdata/checks/library-stream.cu checks/ZzReachDemoCheck.cpp; do
  [ -f "$tree/$file" ] || fail "$file was not created"
done
grep -q 'registry.add<LibraryStreamCheck>();' "$tree/checks/AllChecks.cpp" || fail "not registered"
grep -q '^  LibraryStreamCheck.cpp$' "$tree/checks/CMakeLists.txt" || fail "not in the CMake source list"
grep -q 'NeedsCallGraph' "$tree/checks/ZzReachDemoCheck.h" || fail "--call-graph does not declare NeedsCallGraph"
# Registrations stay sorted.
grep '^  registry.add<' "$tree/checks/AllChecks.cpp" | sort -c || fail "AllChecks.cpp not sorted"
grep -E '^  [A-Za-z]+\.cpp$' "$tree/checks/CMakeLists.txt" | sort -c || fail "CMakeLists.txt not sorted"
grep -q '^      "library-stream",$' "$tree/analyzer/trace/Evidence.cpp" || fail "no explicit 'no evidence' entry"
grep -q '^## Options' "$tree/docs/checks/library-stream.md" || fail "doc page lacks Options"
grep -q '^## Run-time evidence' "$tree/docs/checks/library-stream.md" || fail "doc page lacks Run-time evidence"

expect_exit 1 "a duplicate is refused" -- "$tree/scripts/new-check.sh" library-stream
expect_stderr "already exists"
expect_exit 2 "a bad id is refused" -- "$tree/scripts/new-check.sh" Library_Stream

# The generated sources compile like checks/DeviceSyncCheck.cpp does.
python3 - "$BUILD/compile_commands.json" "$SRC" "$tree" <<'PY' || fail "generated checks do not compile"
import json, shlex, subprocess, sys
database, src, tree = sys.argv[1:]
entry = next(e for e in json.load(open(database)) if e['file'].endswith('checks/DeviceSyncCheck.cpp'))
args = shlex.split(entry['command'])
out = args.index('-o'); del args[out:out + 2]
args = [a for a in args if not a.endswith('ccache') and a != '-c' and not a.endswith('DeviceSyncCheck.cpp')]
args = args[:1] + ['-I' + tree] + args[1:] + ['-fsyntax-only']
status = 0
for name in ('checks/LibraryStreamCheck.cpp', 'checks/ZzReachDemoCheck.cpp', 'checks/AllChecks.cpp',
             'analyzer/trace/Evidence.cpp'):
    run = subprocess.run(args + [tree + '/' + name], cwd=entry['directory'],
                         capture_output=True, text=True)
    if run.returncode:
        print(name, run.stderr[-3000:], file=sys.stderr)
        status = 1
sys.exit(status)
PY
finish
