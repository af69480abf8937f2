#!/usr/bin/env python3
"""Fix rate of streamlint's checks on real programs (docs/fix-rate.md).

For each program (a directory of a checkout; its entries of a configure-only
compile database are its own database, analyzed alone with --no-cache), runs
streamlint with JSON output and --fix-dry-run, and counts per check: warnings,
warnings with a fix, fixes applied (applicable: what --fix applies), fixes
left as suggestions, and the reason each suggestion gives ("not applied by
--fix: ..." or the suggestion's own description), grouped.

  run_fix_rate.py --streamlint BIN --out DIR \
      --program NAME=DATABASE_JSON:DIRECTORY [--program ...]
  run_fix_rate.py ... --programs-file FILE   (lines NAME DATABASE_JSON DIRECTORY)
  run_fix_rate.py ... --resume   (a program analyzed earlier into OUT is not analyzed again)

Writes DIR/<name>/{compile_commands.json,report.json,dry-run.diff,stderr.txt},
DIR/results.json (per program, per check) and prints the Markdown tables.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

# The reason a fix stays a suggestion, in a few words (first match wins).
REASONS = [
    ("target stream destroyed before", r"is destroyed \(cudaStreamDestroy"),
    ("per-thread stream: the program creates no stream", r"the program creates no stream"),
    ("per-thread stream: the program starts host threads", r"the program starts host threads"),
    ("every caller passes the legacy stream", r"passes the legacy stream \(0\)"),
    ("no single stream in use", r"no single stream is in use"),
    ("legacy stream spelled out", r"if the legacy stream's synchronization is not intended"),
    ("evidence only from other functions", r"^pass '[^']*', the stream (the|this) .* (other|class)"),
    ("called from outside the program", r"address is taken|is virtual|defines no main|C linkage|is exported|external linkage in a library|no call of it is in|called implicitly|is a lambda|definition is not in"),
    ("callers' pending work", r"callers of '[^']*' issued before calling it|before it runs:"),
    ("callers rely on legacy order after return", r"returns to its callers"),
    ("stream not known blocking", r"not known to be blocking|is not created in|may be non-blocking"),
    ("earlier work on another stream", r"issued before it"),
    ("opaque call (may do anything)", r"may issue CUDA work on any stream"),
    ("later work needs a wait that cannot be written", r"no wait can be inserted"),
    ("arrays / not a variable", r"not a local variable or parameter"),
    ("callee does not use its stream parameter", r"does not use the stream parameter"),
    ("ordering not analyzable", r"could not be analyzed"),
    # alloc-in-loop
    ("cudaFree is the loop's only wait", r"cudaFree waits for all device work every iteration"),
    ("buffer read after a loop that may not run", r"is read after the loop"),
    # pageable-memcpy-async: the host before the wait for a now asynchronous copy
    ("host calls a function before the wait", r"the host calls '[^']*', which could read memory"),
    ("host passes the buffer to a call before the wait", r"the host passes '[^']*' to"),
    ("host touches device-written memory before the wait", r"the host reads or writes memory the device may write"),
    ("a call the analysis cannot see before the wait", r"a call the analysis cannot see"),
]


def reason_of(description):
    text = description.split("not applied by --fix: ", 1)[-1]
    for name, pattern in REASONS:
        if re.search(pattern, text):
            return name
    return "other: " + text[:80]


def run_program(streamlint, name, database, directory, out, resume=False):
    entries = [e for e in json.load(open(database))
               if os.path.realpath(e["file"]).startswith(os.path.realpath(directory) + os.sep)]
    work = os.path.join(out, name)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    if not entries:
        return None
    report = os.path.join(work, "report.json")
    exit_file = os.path.join(work, "exit.txt")
    if resume and os.path.exists(report) and os.path.exists(exit_file):
        status = int(open(exit_file).read())
    else:
        with open(os.path.join(work, "dry-run.diff"), "w") as diff, \
                open(os.path.join(work, "stderr.txt"), "w") as err:
            status = subprocess.call([streamlint, "-p", work, "--no-cache", "-j", "2",
                                      "--format", "json", "-o", report, "--fix-dry-run",
                                      "--fix-root", os.path.realpath(directory)],
                                     stdout=diff, stderr=err)
        with open(exit_file, "w") as f:
            f.write(str(status))
    findings = json.load(open(report)).get("findings", []) if os.path.exists(report) else []
    stderr = open(os.path.join(work, "stderr.txt")).read()
    would = re.search(r"would apply (\d+) fix", stderr)
    creates = any("cudaStreamCreate" in open(e["file"], errors="replace").read()
                  for e in entries if os.path.exists(e["file"]))
    per_check = collections.defaultdict(lambda: collections.Counter())
    reasons = collections.defaultdict(collections.Counter)
    for finding in findings:
        if finding.get("severity") != "warning":
            continue
        check = finding["check"]
        counts = per_check[check]
        counts["warnings"] += 1
        fixes = finding.get("fixes", [])
        if fixes:
            counts["with fix"] += 1
            if any(f.get("applicable") for f in fixes):
                counts["applied"] += 1
            else:
                counts["suggested"] += 1
                reasons[check][reason_of(fixes[0].get("description", ""))] += 1
    return {"name": name, "entries": len(entries), "exit": status, "createsStreams": creates,
            "wouldApply": int(would.group(1)) if would else 0,
            "checks": {c: dict(v) for c, v in per_check.items()},
            "reasons": {c: dict(v) for c, v in reasons.items()}}


def table(results, title, select=lambda r: True):
    totals = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    for r in results:
        if not select(r):
            continue
        for check, counts in r["checks"].items():
            totals[check].update(counts)
        for check, counted in r["reasons"].items():
            reasons[check].update(counted)
    lines = [f"### {title}", "", "| check | warnings | with a fix | applied | suggested |",
             "|---|---|---|---|---|"]
    for check in sorted(totals):
        t = totals[check]
        lines.append(f"| {check} | {t['warnings']} | {t['with fix']} | {t['applied']} | {t['suggested']} |")
    lines += ["", "Why suggestions stay suggestions:", "", "| check | reason | count |", "|---|---|---|"]
    for check in sorted(reasons):
        for reason, count in reasons[check].most_common():
            lines.append(f"| {check} | {reason} | {count} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--streamlint", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--program", action="append", default=[])
    parser.add_argument("--programs-file")
    parser.add_argument("--resume", action="store_true",
                        help="reuse a program's report already in OUT (one that has its exit.txt)")
    args = parser.parse_args()
    programs = []
    for spec in args.program:
        name, rest = spec.split("=", 1)
        database, directory = rest.split(":", 1)
        programs.append((name, database, directory))
    if args.programs_file:
        for line in open(args.programs_file):
            if line.strip() and not line.startswith("#"):
                programs.append(tuple(line.split()))
    os.makedirs(args.out, exist_ok=True)
    results = []
    for name, database, directory in programs:
        result = run_program(args.streamlint, name, database, directory, args.out, args.resume)
        if result:
            results.append(result)
            ds = result["checks"].get("default-stream", {})
            sync = result["checks"].get("device-sync", {})
            print(f"{name}: default-stream {ds.get('applied', 0)}/{ds.get('warnings', 0)}, "
                  f"device-sync {sync.get('applied', 0)}/{sync.get('warnings', 0)} applied, "
                  f"dry run would apply {result['wouldApply']}", file=sys.stderr)
    json.dump(results, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    print(table(results, "All programs"))
    print(table(results, "Programs that create streams", lambda r: r["createsStreams"]))
    goal = collections.Counter()
    for r in results:
        if r["createsStreams"]:
            for check in ("default-stream", "device-sync"):
                goal.update({k: v for k, v in r["checks"].get(check, {}).items()})
    print(f"Goal (default-stream + device-sync warnings in programs that create streams): "
          f"{goal['applied']} of {goal['warnings']} with an applied fix")


if __name__ == "__main__":
    main()
