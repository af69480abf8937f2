#pragma once
// Reading a runtime-probe trace and merging its evidence into static findings.

#include "analyzer/Finding.h"

#include "llvm/Support/Error.h"

#include <string>

namespace streamlint {

/// Reads the trace at `path`, annotates every finding in `result` with its
/// dynamic status and appends runtime-only findings. Errors name the file and
/// what is wrong with it.
llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &result);

} // namespace streamlint
