#pragma once
// Reading a runtime-probe trace and merging its evidence into static findings.

#include "analyzer/Finding.h"
#include "analyzer/trace/TraceFormat.h"

#include "llvm/Support/Error.h"

#include <string>

namespace streamlint {

/// Reads the trace at `path`, annotates every finding in `result` with its
/// dynamic status and appends runtime-only findings. Errors name the file and
/// what is wrong with it.
llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result);

/// The merge itself, on a trace already read. Findings of checks the probe
/// does not observe are left without a dynamic status. Keeps `result`
/// sorted with findingLess.
void mergeTrace(const ProbeTrace &trace, AnalysisResult &result);

/// "confirmed: 3 of 4 calls used the legacy default stream, ..." and the
/// like: the human-readable summary of evidence for one check.
std::string describeEvidence(const std::string &check,
                             const DynamicEvidence &evidence);

} // namespace streamlint
