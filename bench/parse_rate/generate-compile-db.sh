#!/usr/bin/env bash
# Configures every sample project of an extracted NVIDIA/CUDALibrarySamples
# checkout with CMake + nvcc and merges their compile_commands.json into one.
# Usage: generate-compile-db.sh <checkout> <out-dir> [library-dir...]
# Fetches nothing. Projects that fail to configure (missing libraries) are
# listed in <out-dir>/configure-failed.txt and left out.
set -u
checkout=$(realpath "$1"); out=$(realpath -m "$2"); shift 2
libs=("$@")
[ ${#libs[@]} -eq 0 ] && libs=(cuBLAS cuBLASLt cuFFT cuRAND cuSOLVER cuSPARSE NPP nvJPEG)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out/builds"
: > "$out/configure-failed.txt"; : > "$out/configured.txt"
seed=""   # first configured build: its compiler checks are reused by the rest
for lib in "${libs[@]}"; do
  [ -d "$checkout/$lib" ] || { echo "skip $lib: not in checkout"; continue; }
  while IFS= read -r cml; do
    src=$(dirname "$cml"); rel=${src#"$checkout"/}
    bld="$out/builds/${rel//\//_}"
    mkdir -p "$bld"
    # Reuse the CMake compiler identification of the first build: configuring
    # 200 projects would otherwise re-detect nvcc 200 times.
    if [ -n "$seed" ] && [ ! -d "$bld/CMakeFiles" ]; then
      mkdir -p "$bld/CMakeFiles"
      cp -r "$seed"/CMakeFiles/[0-9]* "$bld/CMakeFiles/" 2>/dev/null
    fi
    if cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
         -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_BUILD_TYPE=Release \
         > "$bld/configure.log" 2>&1 && [ -s "$bld/compile_commands.json" ]; then
      echo "$rel" >> "$out/configured.txt"
      [ -z "$seed" ] && seed=$bld
    else
      echo "$rel" >> "$out/configure-failed.txt"
    fi
  done < <(grep -l -i '^ *project *(' $(find "$checkout/$lib" -name CMakeLists.txt) | sort)
done
# One entry per (file, directory): a file built by two sample projects counts twice.
jq -s 'add' "$out"/builds/*/compile_commands.json > "$out/compile_commands.json"
echo "configured $(wc -l < "$out/configured.txt"), failed $(wc -l < "$out/configure-failed.txt"), entries $(jq length "$out/compile_commands.json")"
