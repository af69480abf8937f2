#!/usr/bin/env python3
"""The default-stream and device-sync warnings that keep no applied fix, in
the programs that create streams, grouped by the happens-before edge a fix
would lose (docs/fix-rate.md, the section of 2026-11-28 "device-sync's
narrowed wait with default-stream's moves").

  remaining_by_edge.py RATE_DIR [--list]

RATE_DIR is run_fix_rate.py's --out. Prints a Markdown table (group, count,
per check, per program); --list prints every warning (program, file:line,
check, function, reason) instead. A warning with no fix at all has no reason
to read: those seen on the 64 programs of docs/fix-rate.md were read in the
source and are named in NO_FIX_MODEL.
"""
import collections
import json
import os
import re
import sys

NO_FIX_MODEL = {
    # Since 2026-11-28 (branch h25g) several named streams and an assigned
    # copy result have fix models; these have none: what is pending is the
    # legacy stream's memset and ncclCommInitRank's work, no stream to name.
    "several streams pending, not one stream nor one array loop": [
        ("hecbench-pingpong-cuda", "main-nccl.cu:84")],
    "the copy's result is assigned (err = cudaMemcpy(...))": [],
    "cudaStreamSynchronize(NULL)": [
        ("UnifiedMemoryPerf", "matrixMultiplyPerf.cu:268"),
        ("UnifiedMemoryPerf", "matrixMultiplyPerf.cu:271")],
}

# (group, pattern of the suggestion's reason); the first match wins.
GROUPS = [
    ("called from outside the program (rule 4 stays conservative)",
     r"C linkage|no call of it is in|address is taken|is virtual|defines no main|is exported"),
    ("the callers' later work relies on the legacy order (rules 1, 4)", r"returns to its callers"),
    ("the callers' earlier work (rules 3, 4, 7)", r"callers of '[^']*' issued before calling it|before it runs:"),
    ("work on created streams in the same function (rules 1, 3, 7; rule 10's subset)",
     r"\(unknown stream\)|not inserted where"),
    ("a call that may issue work on any stream", r"may issue CUDA work on any stream"),
    ("the function's own legacy-stream work", r"\(legacy default stream\), issued before it"),
    ("every caller passes the legacy stream: nothing moves", r"passes the legacy stream \(0\)"),
    ("the program creates no stream on the host (policy)", r"creates no stream"),
    ("host threads (one per-thread stream each)", r"starts host threads"),
    ("target stream destroyed before", r"is destroyed \(cudaStreamDestroy"),
]


def remaining(rate):
    for result in json.load(open(os.path.join(rate, "results.json"))):
        if not result or not result.get("createsStreams"):
            continue
        report = os.path.join(rate, result["name"], "report.json")
        if not os.path.exists(report):
            continue
        for f in json.load(open(report))["findings"]:
            if f["check"] not in ("default-stream", "device-sync") or f["severity"] != "warning":
                continue
            if any(fix["applicable"] for fix in f["fixes"]):
                continue
            where = os.path.basename(f["file"]) + ":" + str(f["line"])
            if not f["fixes"]:
                why = None
            else:
                why = f["fixes"][0]["description"].split("not applied by --fix: ", 1)[-1]
            yield result["name"], where, f["check"], f.get("function", ""), why


def group_of(program, where, why):
    if why is None:
        for name, sites in NO_FIX_MODEL.items():
            if (program, where) in sites:
                return "no fix model: " + name
        return "no fix model: not read yet"
    for name, pattern in GROUPS:
        if re.search(pattern, why):
            return name
    return "other: " + why[:60]


def main():
    rate = sys.argv[1]
    rows = list(remaining(rate))
    if "--list" in sys.argv:
        for program, where, check, function, why in rows:
            print("\t".join([program, where, check, function, why or "no fix"]))
        return
    groups = collections.defaultdict(list)
    for program, where, check, _, why in rows:
        groups[group_of(program, where, why)].append((program, check))
    print("| group | total | default-stream | device-sync | programs |")
    print("|---|---|---|---|---|")
    for name, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        checks = collections.Counter(check for _, check in members)
        programs = collections.Counter(program for program, _ in members)
        named = ", ".join(f"{p.replace('hecbench-', '').replace('-cuda', '')} {n}"
                          for p, n in programs.most_common())
        print(f"| {name} | {len(members)} | {checks['default-stream']} | {checks['device-sync']} | {named} |")
    print(f"\n{len(rows)} warnings without an applied fix")


if __name__ == "__main__":
    main()
