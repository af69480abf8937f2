#!/usr/bin/env python3
"""Checks `// PROBE: <check>=<status>` markers in .cu sources against either a
probe trace (--trace, probe side only) or the analyzer's JSON output
(--findings, the full pipeline). Prints one line per expectation; exits 1 on
any mismatch, so a missing or wrong status always fails.

--available CHECKS (comma-separated, from `streamlint --list-checks`): a
marker of a check that is not built yet is held to what the merge must do
without a static finding: a confirmed or runtime-only site is reported
runtime-only, a refuted or unreached one not at all.

`=none` says there is no misuse there: no misuse in the trace and, once the
check is built, no finding at all in the output (a refuted finding there
would be a static false positive).

Several markers on one line: `// PROBE: default-stream=none, device-sync=confirmed`.

Unmarked results fail too, so the markers cover the whole output: with
--trace, any observation with misuses in one of the sources; with
--findings, any finding in one of the sources (of a built check)."""
import argparse, json, os, re, sys

MARK = re.compile(r"//\s*PROBE:(.*)")
PAIR = re.compile(r"([a-z-]+)=([a-z-]+)")

def expectations(sources):
    for src in sources:
        for lineno, text in enumerate(open(src), 1):
            m = MARK.search(text)
            for check, status in PAIR.findall(m.group(1) if m else ""):
                yield os.path.realpath(src), lineno, check, status

def status_from_trace(obs, path, line, check):
    hits = [o for o in obs if o["check"] == check and o["line"] == line and
            os.path.basename(o["file"]) == os.path.basename(path)]
    if not hits or sum(o["calls"] for o in hits) == 0:
        return "not-reached", hits
    misuses = sum(o["misuses"] for o in hits)
    # Without the analyzer, runtime-only looks like confirmed.
    return ("confirmed" if misuses else "refuted"), hits

def finding_field(f, *names):
    """A field of a JSON finding, top-level or under "location"."""
    for scope in (f, f.get("location") or {}):
        for name in names:
            if name in scope:
                return scope[name]
    return None

def without_static_check(want):
    return "runtime-only" if want in ("confirmed", "runtime-only") else "no finding"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace")
    ap.add_argument("--findings")
    ap.add_argument("--available", default=None)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    failures = 0
    if a.trace:
        obs = json.load(open(a.trace))["observations"]
    else:
        doc = json.load(open(a.findings))
        findings = doc["findings"] if isinstance(doc, dict) else doc
    available = None if a.available is None else set(filter(None, a.available.split(",")))
    marks = list(expectations(a.sources))
    for path, line, check, want in marks:
        if a.trace:
            got, hits = status_from_trace(obs, path, line, check)
            if want == "runtime-only":
                want = "confirmed"
            evidence = [{k: h[k] for k in ("calls", "misuses", "host_time_us", "bytes")} for h in hits]
        else:
            hits = [f for f in findings
                    if finding_field(f, "check", "checkId", "ruleId") == check
                    and finding_field(f, "line") == line
                    and os.path.basename(finding_field(f, "file") or "") == os.path.basename(path)]
            if len(hits) > 1:
                got = "%d findings" % len(hits)
            else:
                got = ((hits[0].get("dynamic") or {}).get("status", "no status")
                       if hits else "no finding")
            evidence = [h.get("dynamic") for h in hits]
            if available is not None and check not in available and want != "none":
                want = without_static_check(want)
                check += " (not built)"
        if want == "none":
            ok = got in (("refuted", "not-reached") if a.trace else ("no finding",)) or (
                not a.trace and available is not None and check not in available
                and got in ("refuted", "not-reached", "no finding"))
        else:
            ok = got == want
        failures += not ok
        print("%s %s:%d %s: want %s, got %s %s" % ("ok  " if ok else "FAIL",
              os.path.basename(path), line, check, want, got, evidence))
    # What no marker expects: a misuse the probe saw, or a finding.
    marked = {(os.path.basename(p), l, c) for p, l, c, w in marks}
    names = {os.path.basename(p) for p, _, _, _ in marks} | {
        os.path.basename(s) for s in a.sources}
    if a.trace:
        extra = [(o["file"], o["line"], o["check"], o) for o in obs if o["misuses"]]
    else:
        extra = [(finding_field(f, "file") or "", finding_field(f, "line"),
                  finding_field(f, "check", "checkId", "ruleId"), f) for f in findings]
    for file, line, check, item in extra:
        base = os.path.basename(file)
        if base not in names or (base, line, check) in marked:
            continue
        if not a.trace and available is not None and check not in available and not item.get("dynamic"):
            continue
        failures += 1
        print("FAIL %s:%s %s: no marker expects this %s: %s" % (
            base, line, check, "misuse" if a.trace else "finding",
            item if a.trace else (item.get("message"), item.get("dynamic"))))
    print("%d expectation(s) failed" % failures)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
