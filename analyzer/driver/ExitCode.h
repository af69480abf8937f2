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

/// Incomplete analysis wins over skipped fixes, skipped fixes over findings:
/// a green run must mean "all read", and a --fix run that left some fix
/// unapplied must not look like one whose fixes all landed.
inline ExitCode exitCodeFor(const AnalysisResult &result, unsigned skippedFixes = 0) {
  if (!result.problems.empty())
    return ExitIncomplete;
  if (skippedFixes > 0)
    return ExitFixesSkipped;
  for (const Finding &finding : result.findings)
    if (finding.severity != Severity::Note)
      return ExitFindings;
  return ExitClean;
}

} // namespace streamlint
