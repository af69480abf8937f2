#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then the installed programs run
# as a user would run them, without the build tree on PATH; and the .deb
# built by CPack has the documented contents and dependencies.
. "$(dirname "$0")/lib.sh"
BUILD=${STREAMLINT_BINARY_DIR:?set STREAMLINT_BINARY_DIR to the build directory}
PREFIX=$WORK/prefix

expect_exit 0 "cmake --install" -- cmake --install "$BUILD" --prefix "$PREFIX"
for f in bin/streamlint bin/streamlint-pre-commit share/doc/streamlint/integrations.md \
         share/doc/streamlint/configuration.md share/doc/streamlint/integrations/vscode/tasks.json; do
  [ -e "$PREFIX/$f" ] || fail "not installed: $f"
done
[ -x "$PREFIX/bin/streamlint-pre-commit" ] || fail "streamlint-pre-commit is not executable"
if [ -f "$BUILD/lib/libstreamlint_probe.so" ]; then
  [ -f "$PREFIX/lib/streamlint/libstreamlint_probe.so" ] || fail "probe library not in lib/streamlint/"
  [ -e "$PREFIX/lib/libstreamlint_probe.so" ] && fail "probe library in lib/ (a private library)"
  [ -x "$PREFIX/bin/streamlint-probe" ] || fail "streamlint-probe not in bin/"
fi

export PATH=/usr/bin:/bin
expect_exit 0 "installed streamlint --version" -- "$PREFIX/bin/streamlint" --version
expect_stdout "streamlint 0."
expect_stdout "built with LLVM 22."

# The installed hook finds the installed streamlint next to itself.
BUILT_STREAMLINT=$STREAMLINT
unset STREAMLINT
P=$WORK/project
mkdir -p "$P"
printf '#include <cuda_runtime.h>\nvoid s() { cudaDeviceSynchronize(); }\n' >"$P/a.cu"
printf '[{"directory": "%s", "file": "a.cu", "command": "nvcc -x cu -c a.cu"}]\n' "$P" \
  >"$P/compile_commands.json"
cd "$P" || exit 1
# device-sync gives a note or a warning depending on its version: the
# installed hook must exit as the built streamlint does.
"$BUILT_STREAMLINT" a.cu >/dev/null 2>&1; F=$?
: >"$P/a.cuh"
expect_exit "$F" "installed hook" -- "$PREFIX/bin/streamlint-pre-commit" a.cu a.cuh
expect_stdout "a.cu:2:12: "
expect_stdout "[device-sync]"
expect_stderr "a.cuh: no translation unit of the compile database includes it"

# The .deb (needs dpkg-deb, as on Debian).
if command -v dpkg-deb >/dev/null && [ -f "$BUILD/CPackConfig.cmake" ]; then
  expect_exit 0 "cpack -G DEB" -- cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg"
  deb=$(ls "$WORK"/pkg/streamlint_*.deb 2>/dev/null | head -1)
  if [ -z "$deb" ]; then
    fail "no .deb in $WORK/pkg"
  else
    depends=$(dpkg-deb -f "$deb" Depends)
    for d in "libc6 (>= 2.36)" libclang-cpp22 libllvm22 libclang-common-22-dev clang-22; do
      case "$depends" in *"$d"*) ;; *) fail ".deb Depends lacks $d: $depends" ;; esac
    done
    dpkg-deb -c "$deb" >"$WORK/contents"
    for f in ./usr/bin/streamlint ./usr/bin/streamlint-pre-commit ./usr/share/doc/streamlint/integrations.md; do
      grep -q " $f\$" "$WORK/contents" || fail ".deb lacks $f"
    done
  fi
else
  echo "note: dpkg-deb or CPackConfig.cmake missing; .deb not checked"
fi
finish
