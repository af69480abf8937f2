#!/usr/bin/env bash
# Heavy translation units: streamlint against clang's own parse of the same
# commands, all measured in this one invocation (never compare numbers
# across machines). CPU time is user+sys (a shared machine's load changes
# wall time, far less CPU time); peak RSS is the largest resident set of
# any process of the run.
#
#   bench/heavy/run_heavy_bench.sh [--cuda-samples DIR] [--hecbench DIR] [--max N] [--no-torch]
#
# Projects:
#  torch   bench/heavy/torch_extension: a PyTorch C++/CUDA extension (six .cu
#          kernel files with torch/extension.h or ATen/ATen.h,
#          ATen/cuda/CUDAContext.h, dtype dispatch, cuBLAS; the bindings
#          .cpp), its compile database written the way
#          torch.utils.cpp_extension's BuildExtension compiles
#          (write_compile_db.py), against the PyTorch 2.11 headers unpacked at
#          run time from ../shared/third_party (TORCH_INCLUDE_TARBALL) into
#          site-packages/torch/include beside the project, outside its tree;
#          skipped with a message when absent.
#  thrust  Thrust/CUB users: the .cu files of an NVIDIA/cuda-samples checkout
#          that include thrust/ or cub/ (its Samples/ and Common/, the flags
#          of bench/parse_rate/projects/cuda-samples.sh) and of a HeCBench
#          checkout's src/*-cuda that include cub/ (hecbench.sh's flags);
#          at most --max N of each (default 6). Skipped without checkouts.
#
# For each: clang++-22 -fsyntax-only on the commands `streamlint
# --show-commands` prints; streamlint --checks='-*' --allow-no-checks (parse only); streamlint
# with all checks, cold (a new index); then a one-line edit of one TU and the
# same run again (the index answers the others); all at -j 1. All checks
# with --no-cache too, the run the parse-only one and the baseline compare
# with. With BASELINE_STREAMLINT=<binary>, that build's --no-cache run too.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
STREAMLINT=${STREAMLINT:-$ROOT/build/bin/streamlint}
CLANG=${CLANG:-clang++-22}
TORCH_INCLUDE_TARBALL=${TORCH_INCLUDE_TARBALL:-$ROOT/../shared/third_party/torch-2.11.0-include.tar.xz}
[ -f "$TORCH_INCLUDE_TARBALL" ] || TORCH_INCLUDE_TARBALL=/work/shared/third_party/torch-2.11.0-include.tar.xz
CUDA_SAMPLES="" HECBENCH="" MAX=6 TORCH=1
while [ $# -gt 0 ]; do
  case $1 in
    --cuda-samples) CUDA_SAMPLES=$(realpath "$2"); shift 2 ;;
    --hecbench) HECBENCH=$(realpath "$2"); shift 2 ;;
    --max) MAX=$2; shift 2 ;;
    --no-torch) TORCH=0; shift ;;
    *) echo "usage: $0 [--cuda-samples DIR] [--hecbench DIR] [--max N] [--no-torch]" >&2; exit 2 ;;
  esac
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME=$WORK/xdg XDG_STATE_HOME=$WORK/state

# cpu NAME COMMAND... -> "NAME cpu_seconds peak_kib" appended to $RESULTS
cpu() {
  local name=$1; shift
  local status=0
  /usr/bin/time -f "%U %S %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/last.err" || status=$?
  echo "$status" >"$WORK/last.status"
  read -r user sys kib < <(tail -n 1 "$WORK/time")
  echo "$name $(echo "$user + $sys" | bc) $kib" >>"$RESULTS"
}

# bench NAME DB_DIR EDITED_FILE
bench() {
  local name=$1 db=$2 edited=$3
  RESULTS=$WORK/$name.results; : >"$RESULTS"
  "$STREAMLINT" -p "$db" --show-commands >"$WORK/$name.show"
  grep '^cd ' "$WORK/$name.show" | sed 's/$/ || echo FAILED >\&2/' >"$WORK/$name.commands"
  grep -F " $edited" "$WORK/$name.commands" | head -n 1 >"$WORK/$name.edited-command"
  local tus; tus=$(grep -c '^cd ' "$WORK/$name.commands")
  cpu clang bash "$WORK/$name.commands"
  grep -q FAILED "$WORK/last.err" && { echo "warning: clang++-22 failed on some commands:" >&2; head -3 "$WORK/last.err" >&2; }
  cpu clang-edited-tu bash "$WORK/$name.edited-command"
  # The floor of any run that parses every TU once: clang skipping every
  # function body it may skip (the main file's too; constexpr functions and
  # deduced return types it still parses), more than streamlint skips.
  sed 's| -fsyntax-only | -fsyntax-only -Xclang -skip-function-bodies |' "$WORK/$name.commands" \
    >"$WORK/$name.floor-commands"
  cpu clang-bodies-skipped bash "$WORK/$name.floor-commands"
  cpu parse-only "$STREAMLINT" -p "$db" --no-cache --checks='-*' --allow-no-checks -j 1 --quiet \
    --all-translation-units
  # Exit 2 is a usage error: such a run parsed nothing, so its time is no figure.
  if [ "$(cat "$WORK/last.status")" = 2 ]; then
    echo "error: the parse-only run failed:" >&2; head -3 "$WORK/last.err" >&2; exit 1
  fi
  # All checks as the parse-only and baseline runs are taken (no index, no
  # preambles): the analysis' own cost (issue 28, item 2).
  cpu checks-no-cache "$STREAMLINT" -p "$db" --no-cache -j 1 --quiet --all-translation-units \
    --format json -o "$WORK/$name.no-cache.json"
  cpu cold "$STREAMLINT" -p "$db" --cache-dir "$WORK/$name.index" --preambles -j 1 --quiet --all-translation-units \
    --format json -o "$WORK/$name.cold.json"
  cpu cold-no-preambles "$STREAMLINT" -p "$db" --cache-dir "$WORK/$name.index-np" --no-preambles -j 1 \
    --quiet --all-translation-units --format json -o "$WORK/$name.cold-np.json"
  echo "int streamlint_bench_edit_$RANDOM = 0; // a one-line edit" >>"$edited"
  cpu edit-rerun "$STREAMLINT" -p "$db" --cache-dir "$WORK/$name.index" --preambles -j 1 --all-translation-units \
    --format json -o "$WORK/$name.edit.json"
  grep -o 'preambles: .*' "$WORK/last.err" >"$WORK/$name.edit-preambles" || echo "no preamble" >"$WORK/$name.edit-preambles"
  cpu edit-rerun-no-preambles "$STREAMLINT" -p "$db" --cache-dir "$WORK/$name.index-np" --no-preambles -j 1 \
    --quiet --all-translation-units --format json -o "$WORK/$name.edit-np.json"
  # A second edit of the same TU: where its prefix is its own, the first
  # analysis deferred its preamble and the first edit built it.
  echo "int streamlint_bench_edit_again_$RANDOM = 0; // another edit" >>"$edited"
  cpu edit-again "$STREAMLINT" -p "$db" --cache-dir "$WORK/$name.index" --preambles -j 1 --all-translation-units \
    --format json -o "$WORK/$name.edit-again.json"
  grep -o 'preambles: .*' "$WORK/last.err" >"$WORK/$name.edit-again-preambles" || echo "no preamble" >"$WORK/$name.edit-again-preambles"
  du -sk "$WORK/$name.index/preambles" | cut -f1 >"$WORK/$name.preamble-kib"
  if [ -n "${BASELINE_STREAMLINT:-}" ]; then
    cpu baseline-cold "$BASELINE_STREAMLINT" -p "$db" --no-cache -j 1 --quiet --all-translation-units \
      --format json -o "$WORK/$name.baseline.json"
  fi
  echo "$name: $tus translation units ($db), edited: $edited"
  python3 - "$RESULTS" "$WORK/$name.cold.json" "${BASELINE_STREAMLINT:+$WORK/$name.baseline.json}" \
    "$WORK/$name" <<'PY'
import json, sys
prefix = sys.argv[4]
def findings(path): return json.load(open(path)).get("findings")
rows = {}
for line in open(sys.argv[1]):
    name, cpu, kib = line.split()
    rows[name] = (float(cpu), int(kib))
    print(f"  {name:<18} {float(cpu):8.2f} s CPU  {int(kib) / 1024:8.1f} MiB peak")
clang, parse, cold = rows["clang"], rows["parse-only"], rows["cold"]
checks = rows["checks-no-cache"]
print(f"  all checks / streamlint parse-only    : {checks[0] / parse[0]:.2f}x CPU, peak RSS {checks[1] / parse[1]:.2f}x (both --no-cache)")
print(f"  all checks / clang -fsyntax-only      : {checks[0] / clang[0]:.2f}x CPU, peak RSS {checks[1] / clang[1]:.2f}x (--no-cache; goal <= 1.10x both)")
print(f"  writing the index: cold without preambles / --no-cache: {rows['cold-no-preambles'][0] / checks[0]:.2f}x CPU")
print(f"  all checks, cold / clang -fsyntax-only: {cold[0] / clang[0]:.2f}x CPU  (goal <= 0.5x)")
print(f"  one parse per TU, every body skipped   : {rows['clang-bodies-skipped'][0] / clang[0]:.2f}x CPU  (clang's own floor for a run sharing no prefix)")
print(f"  peak RSS all checks, cold / clang     : {cold[1] / clang[1]:.2f}x")
print(f"  edit one TU, re-run / its clang parse : {rows['edit-rerun'][0] / rows['clang-edited-tu'][0]:.2f}x CPU  (goal <= 0.2x; {open(prefix + '.edit-preambles').read().strip()})")
print(f"  edit it again, re-run / its clang parse: {rows['edit-again'][0] / rows['clang-edited-tu'][0]:.2f}x CPU  ({open(prefix + '.edit-again-preambles').read().strip()})")
print(f"  without preambles: cold / clang       : {rows['cold-no-preambles'][0] / clang[0]:.2f}x CPU; edit re-run / its clang parse {rows['edit-rerun-no-preambles'][0] / rows['clang-edited-tu'][0]:.2f}x")
print(f"  preambles kept                        : {int(open(prefix + '.preamble-kib').read()) / 1024:.1f} MiB")
print(f"  findings identical with and without preambles: cold {findings(prefix + '.cold.json') == findings(prefix + '.cold-np.json')}, "
      f"after the edit {findings(prefix + '.edit.json') == findings(prefix + '.edit-np.json')}")
count = len(json.load(open(sys.argv[2])).get("findings", []))
print(f"  findings (cold run)                   : {count}; identical to the --no-cache run: "
      f"{findings(sys.argv[2]) == findings(prefix + '.no-cache.json')}")
if len(sys.argv) > 3 and sys.argv[3]:
    base = rows["baseline-cold"]
    same = findings(prefix + ".no-cache.json") == findings(sys.argv[3])
    print(f"  this build / baseline, both --no-cache: {checks[0] / base[0]:.2f}x CPU; peak RSS {checks[1] / base[1]:.2f}x; findings identical: {same}")
PY
}

ran=0
if [ "$TORCH" = 0 ]; then
  echo "torch: skipped (--no-torch)"
elif [ -f "$TORCH_INCLUDE_TARBALL" ]; then
  # The headers outside the project's tree, where pip puts them
  # (site-packages/torch/include), as a real extension sees them.
  mkdir -p "$WORK/torch/src" "$WORK/site-packages/torch"
  tar -xJf "$TORCH_INCLUDE_TARBALL" -C "$WORK/site-packages/torch"
  cp "$ROOT"/bench/heavy/torch_extension/*.cu "$ROOT"/bench/heavy/torch_extension/*.cpp "$WORK/torch/src/"
  python3 "$ROOT/bench/heavy/torch_extension/write_compile_db.py" "$WORK/torch/src" \
    "$WORK/site-packages/torch/include" "$WORK/torch/build"
  bench torch "$WORK/torch/build" "$WORK/torch/src/reduce_ops.cu"
  ran=1
else
  echo "torch: skipped: $TORCH_INCLUDE_TARBALL is absent (PyTorch 2.11 headers)"
fi

if [ -n "$CUDA_SAMPLES$HECBENCH" ]; then
  mkdir -p "$WORK/thrust/src" "$WORK/thrust/build"
  python3 - "$WORK/thrust" "$MAX" "$CUDA_SAMPLES" "$HECBENCH" <<'PY'
import json, os, re, shutil, sys
work, limit, samples, hecbench = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
uses = re.compile(r'#\s*include\s*[<"](thrust|cub)/')
entries = []
def copied(checkout, parts):  # only what the TUs read, so the edit stays in $WORK
    target = os.path.join(work, "src", os.path.basename(checkout.rstrip("/")))
    for part in parts:
        if not os.path.exists(os.path.join(target, part)):
            shutil.copytree(os.path.join(checkout, part), os.path.join(target, part), symlinks=True)
    return target
def users(paths):
    return [p for p in paths if uses.search(open(p, errors="replace").read())][:limit]
if samples:
    found = sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(samples, "Samples"))
                   for f in fs if f.endswith(".cu"))
    chosen = [os.path.relpath(p, samples) for p in users(found)]
    root = copied(samples, ["Common"] + sorted({os.path.dirname(p) for p in chosen}))
    for relative in chosen:
        path = os.path.join(root, relative); d = os.path.dirname(path)
        entries.append({"directory": d, "file": path, "command":
            f"{nvcc} -I{root}/Common -I{d} -std=c++17 -O2 --extended-lambda -c {path} -o /dev/null"})
if hecbench:
    src = os.path.join(hecbench, "src")
    found = sorted(os.path.join(src, d, f) for d in os.listdir(src) if d.endswith("-cuda")
                   for f in os.listdir(os.path.join(src, d)) if f.endswith(".cu"))
    chosen = [os.path.relpath(p, hecbench) for p in users(
        [p for p in found if "cub/" in open(p, errors="replace").read()])]
    root = copied(hecbench, ["src/include"] + sorted({os.path.dirname(p) for p in chosen}))
    for relative in chosen:
        path = os.path.join(root, relative); d = os.path.dirname(path)
        makefile = os.path.join(d, "Makefile")
        openmp = "-Xcompiler -fopenmp" if os.path.exists(makefile) and \
            "-fopenmp" in open(makefile, errors="replace").read() else ""
        entries.append({"directory": d, "file": path, "command":
            f"{nvcc} -std=c++17 -Xcompiler -Wall {openmp} -I{root}/src/include -arch=sm_75 -O3 -c {path} -o /dev/null"})
json.dump(entries, open(os.path.join(work, "build", "compile_commands.json"), "w"), indent=1)
print(entries[0]["file"] if entries else "")
PY
  edited=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[0]['file'])" "$WORK/thrust/build/compile_commands.json")
  bench thrust "$WORK/thrust/build" "$edited"
  ran=1
else
  echo "thrust: skipped: give --cuda-samples and/or --hecbench checkouts (fetched, never committed)"
fi
[ "$ran" = 1 ] || exit 77
