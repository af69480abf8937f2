#!/usr/bin/env bash
# The pre-commit hook as a user runs it: Debian's pre-commit, a throwaway git
# repository with a CUDA project, `pre-commit try-repo` against a committed
# copy of this repository's .pre-commit-hooks.yaml. No network needed.
. "$(dirname "$0")/lib.sh"

command -v pre-commit >/dev/null || { echo "SKIP: pre-commit not installed"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export PRE_COMMIT_HOME=$WORK/pre-commit-home
# The hook's entry must be on PATH (language: system); it runs $STREAMLINT.
mkdir -p "$WORK/bin"
cp "$SRC/integrations/pre-commit/streamlint-pre-commit" "$WORK/bin/"
export PATH=$WORK/bin:$PATH STREAMLINT

# try-repo needs a git repository with the hooks file committed.
HOOKS=$WORK/streamlint-repo
mkdir -p "$HOOKS"
cp "$SRC/.pre-commit-hooks.yaml" "$HOOKS/"
cp -r "$SRC/integrations" "$HOOKS/"
git -C "$HOOKS" init -q && git -C "$HOOKS" add -A && git -C "$HOOKS" commit -qm hooks

P=$WORK/project
mkdir -p "$P/build" "$P/src"
cat >"$P/src/bad.cu" <<'CU'
#include <cuda_runtime.h>
void stepSync() { cudaDeviceSynchronize(); }
#include "sync.cuh"
CU
cat >"$P/src/sync.cuh" <<'CU'
#pragma once
#include <cuda_runtime.h>
inline void loopSync(int n) { for (int i = 0; i < n; ++i) cudaDeviceSynchronize(); }
CU
cat >"$P/src/good.cu" <<'CU'
#include <cuda_runtime.h>
void launchOnly(cudaStream_t s) { cudaStreamQuery(s); }
CU
cat >"$P/src/kernels.cuh" <<'CU'
#pragma once
CU
echo 'int main() { return 0; }' >"$P/src/tool.cpp"
echo '# notes' >"$P/README.md"
cat >"$P/build/compile_commands.json" <<JSON
[
 {"directory": "$P/build", "file": "$P/src/bad.cu", "command": "nvcc -x cu -c $P/src/bad.cu -o bad.o"},
 {"directory": "$P/build", "file": "$P/src/good.cu", "command": "nvcc -x cu -c $P/src/good.cu -o good.o"}
]
JSON
cd "$P" && git init -q && git add src README.md

# device-sync reports a note or a warning depending on the check's version;
# the hook must fail exactly when streamlint does.
"$STREAMLINT" -p build src/bad.cu >/dev/null 2>&1; F=$?
case $F in 0|1) ;; *) fail "streamlint on bad.cu: exit $F" ;; esac

# All staged files: bad.cu's finding is shown (--verbose: even if it is only
# a note), headers through the TUs that include them, a source the build
# does not compile (yet) with a neighbour's command, saying so (issue 22:
# never passed silently); README.md is not passed at all.
expect_exit "$F" "hook on a finding" -- pre-commit try-repo "$HOOKS" streamlint --all-files --verbose
expect_stdout "src/bad.cu:2:19: "
expect_stdout "[device-sync]"
expect_stdout "src/sync.cuh:3:"
expect_stdout "src/tool.cpp: no entry in the compile database; analyzed with the command of"
grep -q "skipped" "$WORK/out" && fail "a staged file was skipped"
grep -q "README.md" "$WORK/out" && fail "README.md was passed to the hook"

# A new source with a finding, staged before the build knows it: the hook
# fails as it does for a file in the database (it used to pass).
printf '#include <cuda_runtime.h>\nvoid newSync() { for (int i = 0; i < 2; ++i) cudaDeviceSynchronize(); }\n' >src/new_file.cu
git add src/new_file.cu
"$STREAMLINT" -p build src/new_file.cu >/dev/null 2>&1; N=$?
[ "$N" = 1 ] || fail "streamlint on a new file with a warning: exit $N, expected 1"
expect_exit 1 "hook on a new file" -- pre-commit try-repo "$HOOKS" streamlint --files src/new_file.cu
expect_stdout "src/new_file.cu:2:"
expect_stdout "(interpolated)"
git rm -q --cached src/new_file.cu && rm src/new_file.cu

expect_exit 0 "hook on clean files" -- pre-commit try-repo "$HOOKS" streamlint --files src/good.cu src/kernels.cuh
expect_stdout "Passed"
# A staged header alone (issue 12): analyzed through bad.cu, which includes
# it; only the header's finding is reported. One no TU includes borrows a
# neighbour's command.
expect_exit 1 "hook on a staged header" -- pre-commit try-repo "$HOOKS" streamlint --files src/sync.cuh
expect_stdout "src/sync.cuh:3:"
grep -q "src/bad.cu:2:" "$WORK/out" && fail "a staged header reported its includer's findings"
expect_exit 0 "hook on a header no TU includes" -- pre-commit try-repo "$HOOKS" streamlint --verbose --files src/kernels.cuh
expect_stdout "kernels.cuh: no translation unit of the compile database includes it"

# A real .pre-commit-config.yaml pinning the hooks repository's commit, with -p.
rev=$(git -C "$HOOKS" rev-parse HEAD)
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $HOOKS
    rev: $rev
    hooks:
      - id: streamlint
        args: [-p, build]
YAML
git add .pre-commit-config.yaml
expect_exit "$F" "pre-commit run with a config" -- pre-commit run streamlint --verbose --files src/bad.cu src/good.cu
expect_stdout "src/bad.cu:2:19"

# A file streamlint cannot analyze fully (exit 3) fails the hook.
printf '#include <cuda_runtime.h>\nvoid f() { not_declared(); }\n' >src/good.cu
expect_exit 1 "hook on a file with compile errors" -- pre-commit run streamlint --files src/good.cu
expect_stdout "not_declared"
finish
