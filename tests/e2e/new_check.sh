#!/usr/bin/env bash
# scripts/new-check.sh on a copy of the source tree: it creates the check's
# files, registers it (sorted), refuses duplicates and bad ids, and both
# scaffolds (AST matchers, --call-graph) compile against the real headers
# with the flags CMake uses for the existing checks, and so does the
# --part scaffold's whole-program part.
source "$(dirname "$0")/lib.sh"
BUILD=${STREAMLINT_BINARY_DIR:?set STREAMLINT_BINARY_DIR}
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }

tree="$WORK/tree"
mkdir -p "$tree"
(cd "$SRC" && tar -cf - checks docs/checks testdata/checks scripts api) | tar -xf - -C "$tree"

expect_exit 0 "scaffold with matchers" -- "$tree/scripts/new-check.sh" library-stream
expect_stdout "created checks/LibraryStreamCheck.h"
expect_exit 0 "scaffold with the call graph" -- "$tree/scripts/new-check.sh" zz-reach-demo --call-graph
expect_exit 0 "scaffold with a whole-program part" -- "$tree/scripts/new-check.sh" zz-part-demo --part
expect_stdout "checks/ZzPartDemoPart.cpp"
for file in checks/LibraryStreamCheck.h checks/LibraryStreamCheck.cpp docs/checks/library-stream.md \
            testdata/checks/library-stream.cu checks/ZzReachDemoCheck.cpp checks/ZzPartDemoPart.cpp; do
  [ -f "$tree/$file" ] || fail "$file was not created"
done
grep -q 'registry.add<LibraryStreamCheck>();' "$tree/checks/AllChecks.cpp" || fail "not registered"
grep -q '^  LibraryStreamCheck.cpp$' "$tree/checks/CMakeLists.txt" || fail "not in the CMake source list"
grep -q 'NeedsCallGraph' "$tree/checks/ZzReachDemoCheck.h" || fail "--call-graph does not declare NeedsCallGraph"
grep -q 'static std::optional<WholeProgramPart> part();' "$tree/checks/ZzPartDemoCheck.h" || fail "--part declares no part"
grep -q '^  ZzPartDemoPart.cpp$' "$tree/checks/CMakeLists.txt" || fail "the part is not in the CMake source list"
[ ! -e "$tree/checks/ZzReachDemoPart.cpp" ] || fail "--call-graph wrote a part"
# Registrations stay sorted.
grep '^  registry.add<' "$tree/checks/AllChecks.cpp" | sort -c || fail "AllChecks.cpp not sorted"
grep -E '^  [A-Za-z]+\.cpp$' "$tree/checks/CMakeLists.txt" | sort -c || fail "CMakeLists.txt not sorted"
# No evidence is stated on the page (CheckConsistencyTest reads it there).
grep -A2 '^## Run-time evidence' "$tree/docs/checks/library-stream.md" | grep -q '^None' ||
  fail "the page does not state that the check has no run-time evidence"
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
for name in ('checks/LibraryStreamCheck.cpp', 'checks/ZzReachDemoCheck.cpp', 'checks/ZzPartDemoCheck.cpp',
             'checks/ZzPartDemoPart.cpp', 'checks/AllChecks.cpp'):
    run = subprocess.run(args + [tree + '/' + name], cwd=entry['directory'],
                         capture_output=True, text=True)
    if run.returncode:
        print(name, run.stderr[-3000:], file=sys.stderr)
        status = 1
sys.exit(status)
PY
finish
