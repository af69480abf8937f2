#pragma once
// streamlint's exit codes, as documented in --help and the README.

#include "analyzer/Finding.h"

namespace streamlint {

enum ExitCode : int {
  ExitClean = 0,       // no warnings (notes alone do not fail)
  ExitFindings = 1,    // at least one warning or error
  ExitUsageError = 2,  // bad option or input
  ExitIncomplete = 3,  // some TU could not be analyzed fully
  ExitFixesSkipped = 4, // --fix: some applicable fix was not applied
};

/// What an incompletely analyzed TU does to the exit code
/// (--partial-analysis): by default it wins over findings, since a green run
/// must mean "all read"; `Warn` reports it and exits by the findings alone.
/// Skipped fixes (--fix left an applicable fix unapplied) win over findings.
enum class PartialAnalysisPolicy { Error, Warn };

inline ExitCode exitCodeFor(const AnalysisResult &result,
                            PartialAnalysisPolicy policy = PartialAnalysisPolicy::Error,
                            unsigned skippedFixes = 0) {
  if (!result.problems.empty() && policy == PartialAnalysisPolicy::Error)
    return ExitIncomplete;
  if (skippedFixes > 0)
    return ExitFixesSkipped;
  for (const Finding &finding : result.findings)
    if (finding.severity != Severity::Note)
      return ExitFindings;
  return ExitClean;
}

} // namespace streamlint
