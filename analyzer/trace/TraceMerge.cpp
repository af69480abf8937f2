#include "analyzer/trace/TraceMerge.h"
#include "analyzer/InputFile.h"

#include "checks/CheckEvidence.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "api/CudaApiTable.h"

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

void appendDetail(DynamicEvidence &e, const std::string &detail) {
  if (!detail.empty() && e.detail.find(detail) == std::string::npos)
    e.detail += (e.detail.empty() ? "" : "; ") + detail;
}

std::string insideLibraryCall(const TraceObservation &o) {
  if (o.libraryCall.empty())
    return "";
  return "inside " + o.libraryCall + (o.library.empty() ? "" : " (" + o.library + ")");
}

void add(DynamicEvidence &e, const TraceObservation &o, bool nameLibraryCall = true) {
  accumulate(e, o);
  appendDetail(e, o.detail);
  if (nameLibraryCall)
    appendDetail(e, insideLibraryCall(o));
}

/// "at::empty(c10::ArrayRef<long>, ...)" -> "at::empty".
std::string withoutParameters(std::string function) {
  int depth = 0;
  for (std::size_t i = 1; i < function.size(); ++i) {
    depth += function[i] == '<' ? 1 : function[i] == '>' ? -1 : 0;
    if (function[i] == '(' && depth == 0)
      return function.substr(0, i);
  }
  return function;
}

/// Where in the program each observation belongs (TraceMerge.h), summed
/// per check and line again; `outside` counts the calls of those that have
/// no frame in the program.
std::vector<TraceObservation> placeInProgram(const std::vector<TraceObservation> &observations,
                                             const TraceSources &sources,
                                             std::uint64_t &outside,
                                             std::string &firstOutside) {
  if (sources.root.empty() && sources.files.empty())
    return observations; // nothing says where the program is
  std::vector<TraceObservation> placed;
  std::map<std::tuple<std::string, std::string, unsigned>, std::size_t> at;
  for (TraceObservation o : observations) {
    if (!sources.allows(o.file)) {
      auto inside = std::find_if(o.callers.begin(), o.callers.end(),
                                 [&](const TraceCaller &c) { return sources.allows(c.file); });
      if (inside != o.callers.end()) {
        // The frame just inside the program's is the call it made.
        std::string called = inside == o.callers.begin() ? o.function
                                                         : std::prev(inside)->function;
        o.libraryCall = withoutParameters(called);
        o.library.clear();
        o.file = inside->file;
        o.line = inside->line;
        o.function = inside->function;
        o.fileGuessed = false;
      } else if (llvm::sys::fs::exists(o.file)) {
        // Code on this machine outside the project: not the program's.
        outside += o.calls;
        if (firstOutside.empty())
          firstOutside = o.file + ":" + std::to_string(o.line);
        continue;
      } // else: a trace of another checkout; reported, its file withheld
    }
    o.callers.clear();
    auto [it, inserted] = at.emplace(std::make_tuple(o.check, o.file, o.line), placed.size());
    if (inserted)
      placed.push_back(std::move(o));
    else
      addObservationCounts(placed[it->second], o);
  }
  return placed;
}

/// "cublasCreate (cuBLAS) allocated and freed device memory inside it
/// (cudaMalloc,cudaFree)": what a library call did, from its APIs' rows.
std::string libraryWork(const TraceObservation &o) {
  std::vector<std::string> did;
  auto note = [&](const char *what) {
    if (std::find(did.begin(), did.end(), what) == did.end())
      did.push_back(what);
  };
  llvm::SmallVector<llvm::StringRef, 4> apis;
  llvm::StringRef(o.api).split(apis, ',');
  for (llvm::StringRef name : apis) {
    const api::ApiInfo *row = api::findApi(std::string_view(name.data(), name.size()));
    if (!row)
      continue;
    if (api::allocatesMemory(*row))
      note("allocated");
    if (api::freesMemory(*row))
      note("freed");
    if (row->sync == api::SyncKind::Device)
      note("synchronized the device");
    else if (row->sync != api::SyncKind::None)
      note("waited");
    if (api::isAsyncHostCopy(*row))
      note("copied host memory");
    else if (api::isStreamOrderedWork(*row))
      note("queued stream work");
  }
  std::string text;
  for (std::size_t i = 0; i < did.size(); ++i)
    text += (i == 0 ? "" : i + 1 == did.size() ? " and " : ", ") + did[i];
  bool memory = text.find("allocated") != std::string::npos ||
                text.find("freed") != std::string::npos;
  return o.libraryCall + (o.library.empty() ? "" : " (" + o.library + ")") + " " +
         (text.empty() ? "called" : text) + (memory ? " memory" : "") + " inside it (" +
         o.api + ")";
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
  std::uint64_t outsideCalls = 0;
  std::string firstOutside;
  std::vector<TraceObservation> observations =
      placeInProgram(trace.observations, sources, outsideCalls, firstOutside);
  if (outsideCalls)
    result.notes.push_back(
        "the trace holds " + std::to_string(outsideCalls) +
        " call(s) made in code outside the project with no frame of the program "
        "on their stack (first at " + firstOutside + "): not reported");
  if (trace.libraryOnlyCalls)
    result.notes.push_back(
        "the trace holds " + std::to_string(trace.libraryOnlyCalls) +
        " call(s) made inside prebuilt libraries with no frame of the program on "
        "their stack (a library's own threads, an interpreter calling a "
        "framework): not reported");
  std::vector<bool> used(observations.size(), false);
  for (Finding &f : result.findings) {
    if (!isProbeCheck(f.checkId))
      continue;
    DynamicEvidence e;
    bool reached = false;
    for (std::size_t i = 0; i < observations.size(); ++i) {
      const TraceObservation &o = observations[i];
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
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const TraceObservation &o = observations[i];
    const EvidenceDeclaration *declaration = evidenceFor(o.check);
    // Used: some finding claimed it, possibly another check's judged by
    // these observations (library-default-stream by default-stream's).
    if (used[i] || o.misuses == 0 || !declaration || !declaration->reportUnmatched)
      continue;
    if (sources.checkEnabled && !sources.checkEnabled(o.check, o.file))
      continue; // the selection turned the check off there
    Finding f;
    f.checkId = o.check;
    f.severity = Severity::Warning;
    f.location = {o.file, o.line, 1};
    f.end = f.location;
    f.function = o.function;
    DynamicEvidence e;
    add(e, o, /*nameLibraryCall=*/false); // the message starts with it
    e.status = DynamicStatus::RuntimeOnly;
    std::string summary = describeEvidence(o.check, e);
    if (o.libraryCall.empty()) {
      f.message = o.api + ": " + summary.substr(summary.find(": ") + 2) +
                  "; found at run time, no static finding at this call";
    } else {
      // The program wrote the library call, not the runtime calls inside it:
      // a note, naming the call and what it did.
      f.severity = Severity::Note;
      f.message = libraryWork(o) + ": " + summary.substr(summary.find(": ") + 2) +
                  "; found at run time, no static finding at this call";
    }
    e.detail = summary;
    f.dynamic = std::move(e);
    if (!sources.allows(f.location.file))
      result.withheldFiles.push_back(f.location.file);
    result.findings.push_back(std::move(f));
  }
  std::sort(result.findings.begin(), result.findings.end(), findingLess);
}

namespace {
llvm::Error readTraceFile(const std::string &path, ProbeTrace &trace) {
  std::string text, error;
  if (!readInputFile(path, kTraceLimits, text, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: cannot read the trace: %s", path.c_str(),
                                   error.c_str());
  if (!readTraceJson(text, trace, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   path.c_str(), error.c_str());
  return llvm::Error::success();
}
} // namespace

std::vector<std::string> traceFilesIn(const std::string &directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".trace" &&
        !llvm::sys::fs::is_directory(it->path()))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

llvm::Error mergeTraceFiles(const std::vector<std::string> &paths, AnalysisResult &result,
                            const TraceSources &sources) {
  std::vector<ProbeTrace> traces;
  for (const std::string &path : paths) {
    std::vector<std::string> files{path};
    if (llvm::sys::fs::is_directory(path)) {
      files = traceFilesIn(path);
      if (files.empty())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "%s: no *.trace file in this directory",
                                       path.c_str());
    }
    for (const std::string &file : files) {
      traces.emplace_back();
      if (llvm::Error error = readTraceFile(file, traces.back()))
        return error;
    }
  }
  ProbeTrace all = traces.size() == 1 ? std::move(traces.front()) : combineTraces(traces);
  if (traces.size() > 1)
    result.notes.push_back("merged " + std::to_string(traces.size()) + " traces: " +
                           std::to_string(all.processes) + " process(es)");
  mergeTrace(all, result, sources);
  return llvm::Error::success();
}

llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result,
                           const TraceSources &sources) {
  return mergeTraceFiles({path}, result, sources);
}

} // namespace streamlint
