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

/// What an incompletely analyzed TU does to the exit code
/// (--partial-analysis): by default it wins over findings, since a green run
/// must mean "all read"; `Warn` reports it and exits by the findings alone.
enum class PartialAnalysisPolicy { Error, Warn };

inline ExitCode exitCodeFor(const AnalysisResult &result,
                            PartialAnalysisPolicy policy = PartialAnalysisPolicy::Error) {
  if (!result.problems.empty() && policy == PartialAnalysisPolicy::Error)
    return ExitIncomplete;
  for (const Finding &finding : result.findings)
    if (finding.severity != Severity::Note)
      return ExitFindings;
  return ExitClean;
}

} // namespace streamlint
