#!/usr/bin/env python3
"""Parse parity: for each TU of a compile_commands.json, does its own compiler
accept it, and does streamlint parse it with zero errors?

nvcc entries: the steps of `nvcc --dryrun` are run up to and including
cudafe++, nvcc's C++ front end, which checks the whole TU (host and device
code) as nvcc does; PTX/SASS generation is skipped to keep it cheap. Other
entries: the command with -fsyntax-only. streamlint: `streamlint -p DB
--checks=-* --format json FILES` (parse only, no checks): clean means no
problem reported for the TU (one streamlint run for all sampled files).

Usage: parse-parity.py DB STREAMLINT [--every N] [--name NAME] [--out DIR]
STREAMLINT may also be build/bin/streamlint-parse-rate: the same translation
and shims, parsed by clang++-22 in a subprocess (quicker to build).
Prints one line per TU nvcc accepts that streamlint does not, with the first
error, then a summary line; writes DIR/parity.json.
"""
import argparse, json, os, re, shlex, subprocess, sys, tempfile


def entry_args(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def first_error(text):
    for line in text.splitlines():
        if re.search(r"\b(error|fatal error)\b", line, re.I) and not line.startswith("#$"):
            return line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1][:300] if lines else "(no message)"


def own_compiler_accepts(entry, scratch):
    """(accepted, first error) for the entry's own compiler, front end only."""
    args = entry_args(entry)
    cwd = entry["directory"]
    exe = args[0]
    launchers = {"ccache", "sccache"}
    if os.path.basename(exe) in launchers:
        args = args[1:]
        exe = args[0]
    # Outputs and dependency files go to the scratch directory.
    cleaned, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-MD", "-MMD"):
            continue
        # nvcc's own parallelism only reorders its steps (and with it
        # cudafe++ exits 1 without a word when run alone): same TU without it.
        if re.match(r"^(-t|--threads)(=\d+)?$", a) or re.match(r"^-t\d+$", a):
            skip = "=" not in a and a in ("-t", "--threads")
            continue
        cleaned.append(a)
    if os.path.basename(exe) != "nvcc":
        cmd = cleaned + ["-fsyntax-only"]
        cmd = [a for a in cmd if a != "-c"]
        run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        return run.returncode == 0, first_error(run.stderr)
    dry = subprocess.run(cleaned + ["--dryrun", "-o", os.path.join(scratch, "out.o"),
                                    "--keep-dir", scratch],
                         cwd=cwd, capture_output=True, text=True)
    if dry.returncode != 0:
        return False, first_error(dry.stderr)
    steps = [l[3:] for l in dry.stderr.splitlines() if l.startswith("#$ ")]
    script = []
    for step in steps:
        assignment = re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", step)
        if assignment:
            # nvcc's variables; the steps use only the one-word ones ($CICC_PATH).
            if " " not in step.strip():
                script.append(step)
            continue
        if step.startswith("rm "):
            continue  # removes what the skipped steps would have written
        if "-D__CUDA_ARCH__=" in step:
            continue  # the device-side preprocessing: cudafe++ reads the host one
        script.append(step + " || exit 1")
        if re.match(r'^"?\S*cudafe\+\+', step):
            break  # a non-CUDA input has none: its host compile is the check
    env = dict(os.environ, TMPDIR=scratch)
    run = subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd,
                         capture_output=True, text=True, env=env)
    return run.returncode == 0, first_error(run.stderr + run.stdout)


def parse_rate_problems(tool, entries):
    """The same question through streamlint-parse-rate: streamlint's
    translation and shims (written to disk), parsed by clang++-22 in a
    subprocess; used where the streamlint binary is not at hand."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as db:
        json.dump(entries, db)
    run = subprocess.run([tool, db.name], capture_output=True, text=True)
    os.unlink(db.name)
    problems, current = {}, None
    for line in run.stdout.splitlines():
        if line.startswith("FAIL  "):
            current = line[6:].strip()
            problems[current] = "problem without errors"
        elif current and line.startswith("    ") and problems[current] == "problem without errors":
            problems[current] = line.strip()[:300]
    return problems


def streamlint_problems(streamlint, db, files, jobs):
    """{file: first error} for the TUs streamlint does not parse cleanly; one
    run for all files (-j jobs), as a user would run it."""
    run = subprocess.run([streamlint, "-p", db, "--checks=-*", "--format", "json",
                          "-j", str(jobs), "--all-translation-units"] + files,
                         capture_output=True, text=True)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        sys.exit("streamlint exit %d: %s" % (run.returncode, run.stderr[-2000:]))
    problems = {}
    for problem in report.get("problems", []):
        errors = [e for e in problem.get("errors", []) if not e.startswith("note: ")]
        problems[problem["file"]] = (errors[0] if errors else "problem without errors")[:300]
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("streamlint", help="the binary; '-' runs only the own compiler")
    parser.add_argument("--every", type=int, default=1, help="take every Nth entry")
    parser.add_argument("--name", default="")
    parser.add_argument("--jobs", type=int, default=2, help="streamlint -j")
    parser.add_argument("--out", default="")
    opts = parser.parse_args()
    db_path = opts.db if opts.db.endswith(".json") else os.path.join(opts.db, "compile_commands.json")
    entries = json.load(open(db_path))[:: opts.every]
    rows = []
    # The own compiler's verdicts are kept: the front end is the slow half.
    cache_path = os.path.join(opts.out, "own-compiler.json") if opts.out else ""
    cache = json.load(open(cache_path)) if cache_path and os.path.exists(cache_path) else {}
    with tempfile.TemporaryDirectory() as scratch:
        for entry in entries:
            if entry["file"] not in cache:
                cache[entry["file"]] = own_compiler_accepts(entry, scratch)
                if cache_path:
                    os.makedirs(opts.out, exist_ok=True)
                    json.dump(cache, open(cache_path, "w"), indent=1)
    if opts.streamlint == "-":
        return 0
    files = list(dict.fromkeys(e["file"] for e in entries))
    if os.path.basename(opts.streamlint) == "streamlint-parse-rate":
        problems = parse_rate_problems(opts.streamlint, entries)
    else:
        problems = streamlint_problems(opts.streamlint, db_path, files, opts.jobs)
    for entry in entries:
        ok_nvcc, nvcc_error = cache[entry["file"]]
        our_error = problems.get(entry["file"], "")
        ok_ours = entry["file"] not in problems
        rows.append({"file": entry["file"], "nvcc": ok_nvcc, "nvcc_error": nvcc_error,
                     "streamlint": ok_ours, "streamlint_error": our_error})
        if ok_nvcc and not ok_ours:
            print("DIFF %s\n     %s" % (entry["file"], our_error), flush=True)
    accepted = [r for r in rows if r["nvcc"]]
    clean = [r for r in accepted if r["streamlint"]]
    extra = [r for r in rows if not r["nvcc"] and r["streamlint"]]
    print("%s: %d TUs checked (every %d of %d); own compiler accepts %d; "
          "streamlint clean on %d of those; %d nvcc accepts and streamlint does not; "
          "%d rejected by nvcc and clean in streamlint" %
          (opts.name or db_path, len(rows), opts.every, len(json.load(open(db_path))),
           len(accepted), len(clean), len(accepted) - len(clean), len(extra)))
    if opts.out:
        os.makedirs(opts.out, exist_ok=True)
        json.dump(rows, open(os.path.join(opts.out, "parity.json"), "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
