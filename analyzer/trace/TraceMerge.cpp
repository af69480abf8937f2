#include "analyzer/trace/TraceMerge.h"
#include "analyzer/InputFile.h"

#include "analyzer/trace/Evidence.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace streamlint {
namespace {

std::string normalized(const std::string &path) {
  llvm::SmallString<256> p(path);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

bool sameFile(const std::string &findingFile, const TraceObservation &o) {
  if (normalized(findingFile) == normalized(o.file))
    return true;
  // A name mapped back from *.cudafe1.cpp may have the wrong directory.
  return o.fileGuessed && llvm::sys::path::filename(findingFile) ==
                              llvm::sys::path::filename(o.file);
}

bool coversLine(const Finding &f, unsigned line) {
  unsigned last = std::max(f.location.line, f.end.line);
  if (!f.end.file.empty() && f.end.file != f.location.file)
    last = f.location.line;
  return line >= f.location.line && line <= last;
}

/// The observation's line is one of the finding's related locations.
bool atRelatedLocation(const Finding &f, const TraceObservation &o) {
  for (const RelatedLocation &related : f.related)
    if (related.location.line == o.line && sameFile(related.location.file, o))
      return true;
  return false;
}

bool matches(const Finding &f, const TraceObservation &o) {
  if (o.check != observationCheckFor(f.checkId))
    return false;
  if (coversLine(f, o.line) && sameFile(f.location.file, o))
    return true;
  const EvidenceDeclaration *declaration = evidenceFor(f.checkId);
  return declaration && declaration->matchRelatedLocations && atRelatedLocation(f, o);
}

bool isProbeCheck(const std::string &check) { return evidenceFor(check) != nullptr; }

void add(DynamicEvidence &e, const TraceObservation &o) {
  e.calls += o.calls;
  e.misuses += o.misuses;
  e.hostTimeUs += o.hostTimeUs;
  e.bytes += o.bytes;
  if (!o.detail.empty() && e.detail.find(o.detail) == std::string::npos)
    e.detail += (e.detail.empty() ? "" : "; ") + o.detail;
}

} // namespace

std::string describeEvidence(const std::string &check,
                             const DynamicEvidence &e) {
  if (e.status == DynamicStatus::NotReached)
    return "not reached: the site never ran";
  std::string what =
      evidenceSummary(evidenceFor(check), e.misuses, e.calls, e.bytes, e.hostTimeUs);
  if (!e.detail.empty())
    what += " (" + e.detail + ")";
  return std::string(dynamicStatusName(e.status)) + ": " + what;
}

bool TraceSources::allows(const std::string &path) const {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return false; // nothing there to show, or not reachable: nothing is read
  if (llvm::is_contained(files, std::string(real)))
    return true;
  llvm::SmallString<256> top;
  if (root.empty() || llvm::sys::fs::real_path(root, top))
    return false;
  llvm::StringRef inside(real);
  return inside.consume_front(top) && (top == "/" || inside.empty() || inside.starts_with("/"));
}

void mergeTrace(const ProbeTrace &trace, AnalysisResult &result,
                const TraceSources &sources) {
  std::vector<bool> used(trace.observations.size(), false);
  for (Finding &f : result.findings) {
    if (!isProbeCheck(f.checkId))
      continue;
    DynamicEvidence e;
    bool reached = false;
    for (std::size_t i = 0; i < trace.observations.size(); ++i) {
      const TraceObservation &o = trace.observations[i];
      if (!matches(f, o))
        continue;
      used[i] = true;
      reached |= o.calls > 0;
      add(e, o);
    }
    e.status = !reached        ? DynamicStatus::NotReached
               : e.misuses > 0 ? DynamicStatus::Confirmed
                               : DynamicStatus::Refuted;
    std::string summary = describeEvidence(f.checkId, e);
    if (e.status == DynamicStatus::Confirmed)
      f.message += " [run time: " + summary.substr(summary.find(": ") + 2) + "]";
    e.detail = summary;
    f.dynamic = std::move(e);
  }
  for (std::size_t i = 0; i < trace.observations.size(); ++i) {
    const TraceObservation &o = trace.observations[i];
    const EvidenceDeclaration *declaration = evidenceFor(o.check);
    // Used: some finding claimed it, possibly another check's judged by
    // these observations (library-default-stream by default-stream's).
    if (used[i] || o.misuses == 0 || !declaration || !declaration->reportUnmatched)
      continue;
    Finding f;
    f.checkId = o.check;
    f.severity = Severity::Warning;
    f.location = {o.file, o.line, 1};
    f.end = f.location;
    f.function = o.function;
    DynamicEvidence e;
    add(e, o);
    e.status = DynamicStatus::RuntimeOnly;
    std::string summary = describeEvidence(o.check, e);
    f.message = o.api + ": " + summary.substr(summary.find(": ") + 2) +
                "; found at run time, no static finding at this call";
    e.detail = summary;
    f.dynamic = std::move(e);
    if (!sources.allows(f.location.file))
      result.withheldFiles.push_back(f.location.file);
    result.findings.push_back(std::move(f));
  }
  std::sort(result.findings.begin(), result.findings.end(), findingLess);
}

llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result,
                           const TraceSources &sources) {
  std::string text, error;
  if (!readInputFile(path, kTraceLimits, text, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: cannot read the trace: %s", path.c_str(),
                                   error.c_str());
  ProbeTrace trace;
  if (!readTraceJson(text, trace, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   path.c_str(), error.c_str());
  mergeTrace(trace, result, sources);
  return llvm::Error::success();
}

} // namespace streamlint
