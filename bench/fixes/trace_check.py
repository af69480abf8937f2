#!/usr/bin/env python3
"""After a GPU run of testdata/gpu/fix_proof.sh: does the probe's trace of the
fixed program show the fixed findings gone? (docs/gpu-validation.md)

  trace_check.py STREAMLINT SRC_ROOT RUNS_DIR CASES_TSV

For each case (SRC_ROOT/<name>/{before,after,findings.json}, traces in
RUNS_DIR/<name>/{before,after}.trace), analyzes before/ with before.trace and
after/ with after.trace (a compile database written next to each, the
case's nvcc flags from CASES_TSV's prepare input are not needed: the same
database prepare used is rebuilt from findings.json's files), and prints per
fixed finding (the ones whose fix was applicable): its dynamic status before
(confirmed/refuted/not reached) and, at the same place after (lines mapped
through the diff), what is left: nothing static, and the status of any
finding of that check there.
"""
import difflib
import json
import os
import subprocess
import sys


def line_map(before, after):
    a = open(before).read().splitlines()
    b = open(after).read().splitlines()
    mapping = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for k in range(i2 - i1):
            mapping[i1 + k + 1] = j1 + min(k, max(j2 - j1 - 1, 0)) + 1
    return mapping


def analyze(streamlint, directory, database, trace, out):
    if os.path.exists(out):
        os.remove(out)
    subprocess.call([streamlint, "-p", database, "--no-cache", "--format", "json", "-o", out,
                     "--trace", trace] if os.path.exists(trace) else
                    [streamlint, "-p", database, "--no-cache", "--format", "json", "-o", out],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=directory)
    if not os.path.exists(out):  # the analysis failed: no verdict, not "gone"
        sys.exit(f"trace_check.py: streamlint wrote no report for {directory} ({trace})")
    return json.load(open(out)).get("findings", [])


def database_for(directory, template):
    entries = []
    for e in template:
        e = dict(e)
        e["file"] = os.path.join(directory, os.path.relpath(e["file"], e["directory"]))
        e["command"] = e["command"].replace(e["directory"], directory)
        e["directory"] = directory
        entries.append(e)
    path = os.path.join(directory, "compile_commands.json")
    json.dump(entries, open(path, "w"))
    return directory


def main():
    streamlint, src, runs, cases = (os.path.abspath(a) for a in sys.argv[1:5])
    print("| case | fixed findings (check@line) | before: status | after: left at those lines |")
    print("|---|---|---|---|")
    for line in open(cases):
        name = line.split("|")[0]
        base = os.path.join(src, name)
        template = json.load(open(os.path.join(base, "database.json")))
        fixed = [f for f in json.load(open(os.path.join(base, "findings.json")))["findings"]
                 if any(x.get("applicable") for x in f.get("fixes", []))]
        results = {}
        for variant in ("before", "after"):
            directory = os.path.join(base, variant)
            db = database_for(directory, template)
            results[variant] = analyze(streamlint, directory, db,
                                       os.path.join(runs, name, variant + ".trace"),
                                       os.path.join(base, variant + ".traced.json"))
            os.remove(os.path.join(directory, "compile_commands.json"))
        cells_before, cells_after, keys = [], [], []
        for f in fixed:
            rel = os.path.relpath(f["file"], os.path.join(base, "after"))
            mapping = line_map(os.path.join(base, "before", rel), os.path.join(base, "after", rel))
            keys.append(f"{f['check']}@{os.path.basename(rel)}:{f['line']}")
            status = [g.get("dynamic", {}).get("status", "no trace")
                      for g in results["before"]
                      if g["check"] == f["check"] and g["file"].endswith(rel) and g["line"] == f["line"]]
            cells_before.append(",".join(status) or "-")
            at = mapping.get(f["line"], f["line"])
            left = [g.get("dynamic", {}).get("status", "static") for g in results["after"]
                    if g["check"] == f["check"] and g["file"].endswith(rel) and g["line"] == at]
            cells_after.append(",".join(left) or "gone")
        print(f"| {name} | {'; '.join(keys)} | {'; '.join(cells_before)} | {'; '.join(cells_after)} |")


if __name__ == "__main__":
    main()
