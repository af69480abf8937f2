#pragma once
// streamlint's exit codes, as documented in --help and the README.

#include "analyzer/Finding.h"

namespace streamlint {

enum ExitCode : int {
  ExitClean = 0,       // no warnings (notes alone do not fail)
  ExitFindings = 1,    // at least one warning or error
  ExitUsageError = 2,  // bad option or input
  ExitIncomplete = 3,  // some TU could not be analyzed fully
};

/// Incomplete analysis wins over findings: a green run must mean "all read".
inline ExitCode exitCodeFor(const AnalysisResult &result) {
  if (!result.problems.empty())
    return ExitIncomplete;
  for (const Finding &finding : result.findings)
    if (finding.severity != Severity::Note)
      return ExitFindings;
  return ExitClean;
}

} // namespace streamlint
