#pragma once
// The steps of one streamlint run after option parsing, so main() stays a
// short list of them.

#include "analyzer/Finding.h"
#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/ChangedLines.h"
#include "analyzer/driver/CommandLine.h"
#include "checks/CheckRegistry.h"

#include "llvm/ADT/Twine.h"

namespace streamlint {

/// Prints "streamlint: error: <message>" and returns `code`.
int fail(const llvm::Twine &message, int code);

/// Notes about the run (index, interpolated commands), on stderr.
void printNotes(const AnalysisResult &result);

/// The summary on stderr: findings and TUs (parsed, from the index) and
/// the elapsed time on one line, then the counts per check, what NOLINT,
/// the baseline, the header filter, the severity threshold and the changed
/// lines hid, and the TUs that could not be analyzed.
void printSummary(const AnalysisResult &result, const SummaryCounts &counts,
                  double elapsedSeconds);

/// --show-commands: the clang command per TU, and what translation dropped.
int showCommands(const AnalyzerOptions &options);

/// Where fixes may write: --fix-root, else the project of the compile
/// database's files (analyzer/fix/ProjectRoot.h), never the cwd.
std::string fixRootFor(const CommandLineOptions &options, const AnalysisPlan &plan);

/// Suppressions, baseline, then the report in the chosen format; then
/// --export-fixes / --fix / --fix-dry-run (only files under `fixRoot`
/// change; `skippedFixes` counts the applicable fixes not applied). Returns 0
/// or an exit code.
int writeReportAndFixes(const CommandLineOptions &options,
                        const CheckRegistry &registry, AnalysisResult &result,
                        const std::string &fixRoot, const ChangedLines *changed,
                        SummaryCounts &counts, unsigned &skippedFixes);

} // namespace streamlint
