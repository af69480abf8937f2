#pragma once
// --baseline and --write-baseline: report only findings a previous run did
// not, matching them by fingerprint so edits elsewhere do not revive them.

#include "analyzer/Finding.h"
#include "analyzer/output/Output.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace streamlint {

class SourceTextCache;

/// The fingerprints of the findings a previous run reported.
struct Baseline {
  std::string path;
  std::set<std::string> fingerprints;
};

/// Reads a previous streamlint output: --format=json (what --write-baseline
/// writes) or --format=sarif (partialFingerprints "streamlint/v1"). Errors
/// name the file and what is wrong with it.
llvm::Expected<Baseline> readBaseline(const std::string &path);

/// Removes the findings `baseline` already holds, by the fingerprint each
/// finding carries (assignFingerprints). Returns how many were removed.
std::size_t removeBaselineFindings(std::vector<Finding> &findings,
                                   const Baseline &baseline);

/// Writes `result` in the JSON format to `path`, for a later --baseline.
llvm::Error writeBaselineFile(const std::string &path,
                              const AnalysisResult &result,
                              const OutputOptions &options,
                              SourceTextCache &sources);

/// The driver's --baseline/--write-baseline step, run after suppressions and
/// after the findings got their fingerprints: writes every current finding to
/// `writePath` (when set), then drops those the baseline at `readPath` holds
/// (when set) and marks the options so SARIF reports baselineState.
llvm::Error applyBaselineOptions(const std::string &readPath,
                                 const std::string &writePath,
                                 AnalysisResult &result, OutputOptions &options,
                                 SourceTextCache &sources);

} // namespace streamlint
