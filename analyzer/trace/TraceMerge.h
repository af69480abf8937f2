#pragma once
// Reading a runtime-probe trace and merging its evidence into static findings.

#include "analyzer/Finding.h"
#include "analyzer/trace/TraceFormat.h"

#include "llvm/Support/Error.h"

#include <string>

namespace streamlint {

/// Which files a trace's runtime-only findings may show the source of: those
/// under the project root and the compile database's files. A trace comes
/// from running the code under test, so its paths are data, never files to
/// open elsewhere (`/etc/shadow:1` would print that line into a CI log).
struct TraceSources {
  std::string root;               // absolute; "" allows no directory
  std::vector<std::string> files; // absolute
  /// `path` (made absolute, "..", "." and symbolic links resolved) is one
  /// of `files` or lies under `root`.
  bool allows(const std::string &path) const;
};

/// Reads the trace at `path`, annotates every finding in `result` with its
/// dynamic status and appends runtime-only findings. Errors name the file and
/// what is wrong with it.
llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result,
                           const TraceSources &sources);

/// The merge itself, on a trace already read. Findings of checks the probe
/// does not observe are left without a dynamic status. A runtime-only
/// finding in a file `sources` does not allow is kept, and its file listed
/// in result.withheldFiles. Keeps `result` sorted with findingLess.
void mergeTrace(const ProbeTrace &trace, AnalysisResult &result,
                const TraceSources &sources = {});

/// "confirmed: 3 of 4 calls used the legacy default stream, ..." and the
/// like: the human-readable summary of evidence for one check.
std::string describeEvidence(const std::string &check,
                             const DynamicEvidence &evidence);

} // namespace streamlint
