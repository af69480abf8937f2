#!/usr/bin/env python3
"""Checks `// PROBE: <check>=<status>` markers in .cu sources against either a
probe trace (--trace, probe side only) or the analyzer's JSON output
(--findings, the full pipeline). Prints one line per expectation; exits 1 on
any mismatch, so a missing or wrong status always fails."""
import argparse, json, os, re, sys

MARK = re.compile(r"//\s*PROBE:\s*([a-z-]+)=([a-z-]+)")

def expectations(sources):
    for src in sources:
        for lineno, text in enumerate(open(src), 1):
            for check, status in MARK.findall(text):
                yield os.path.realpath(src), lineno, check, status

def status_from_trace(obs, path, line, check):
    hits = [o for o in obs if o["check"] == check and o["line"] == line and
            os.path.basename(o["file"]) == os.path.basename(path)]
    if not hits or sum(o["calls"] for o in hits) == 0:
        return "not-reached", hits
    misuses = sum(o["misuses"] for o in hits)
    # Without the analyzer, runtime-only looks like confirmed.
    return ("confirmed" if misuses else "refuted"), hits

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace")
    ap.add_argument("--findings")
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    failures = 0
    if a.trace:
        obs = json.load(open(a.trace))["observations"]
    else:
        findings = json.load(open(a.findings))["findings"]
    for path, line, check, want in expectations(a.sources):
        if a.trace:
            got, hits = status_from_trace(obs, path, line, check)
            if want == "runtime-only":
                want = "confirmed"
            evidence = [{k: h[k] for k in ("calls", "misuses", "host_time_us", "bytes")} for h in hits]
        else:
            hits = [f for f in findings if f["check"] == check and f["line"] == line
                    and os.path.basename(f["file"]) == os.path.basename(path)]
            got = hits[0].get("dynamic", {}).get("status", "none") if hits else "no finding"
            evidence = [h.get("dynamic") for h in hits]
        ok = got == want
        failures += not ok
        print("%s %s:%d %s: want %s, got %s %s" % ("ok  " if ok else "FAIL",
              os.path.basename(path), line, check, want, got, evidence))
    print("%d expectation(s) failed" % failures)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
