#pragma once
// Reading a runtime-probe trace and merging its evidence into static findings.

#include "analyzer/Finding.h"
#include "analyzer/trace/TraceFormat.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace streamlint {

/// Which files a trace's runtime-only findings may show the source of: those
/// under the project root and the compile database's files. A trace comes
/// from running the code under test, so its paths are data, never files to
/// open elsewhere (`/etc/shadow:1` would print that line into a CI log).
struct TraceSources {
  std::string root;               // absolute; "" allows no directory
  std::vector<std::string> files; // absolute
  /// Whether `check` is enabled where `file` lies (--checks and the
  /// nearest config's Checks); unset: every check. A run-time-only finding
  /// of a check disabled there is not added.
  std::function<bool(const std::string &check, const std::string &file)> checkEnabled;
  /// `path` (made absolute, "..", "." and symbolic links resolved) is one
  /// of `files` or lies under `root`.
  bool allows(const std::string &path) const;
};

/// Reads the trace at `path`, annotates every finding in `result` with its
/// dynamic status and appends runtime-only findings. Errors name the file and
/// what is wrong with it.
llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result,
                           const TraceSources &sources);

/// Several traces (files, or directories whose `*.trace` files are read in
/// name order) merged as one run: combineTraces, then the merge. A single
/// file is mergeTraceFile.
llvm::Error mergeTraceFiles(const std::vector<std::string> &paths, AnalysisResult &result,
                            const TraceSources &sources);
/// The `*.trace` files directly in `directory`, sorted.
std::vector<std::string> traceFilesIn(const std::string &directory);

/// The merge itself, on a trace already read. First each observation is
/// placed in the program: one whose line lies outside `sources` (a library
/// built with line tables, installed outside the project) moves to its
/// first caller inside them, naming the call the program made; one with no
/// frame inside them whose file exists here is counted in a note, never
/// reported at its path (a trace of another checkout, whose files do not
/// exist here, is kept as it is). With empty `sources` nothing moves. Findings of checks the probe
/// does not observe are left without a dynamic status. A runtime-only
/// finding in a file `sources` does not allow (a trace of another checkout)
/// is kept, and its file listed in result.withheldFiles. A runtime-only
/// finding made inside a library call is a note naming that call and what it
/// did inside. Keeps `result` sorted with findingLess.
void mergeTrace(const ProbeTrace &trace, AnalysisResult &result,
                const TraceSources &sources = {});

/// "confirmed: 3 of 4 calls used the legacy default stream, ..." and the
/// like: the human-readable summary of evidence for one check.
std::string describeEvidence(const std::string &check,
                             const DynamicEvidence &evidence);

} // namespace streamlint
