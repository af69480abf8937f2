#include "analyzer/driver/DriverSteps.h"

#include "analyzer/driver/ExitCode.h"
#include "analyzer/OutputFile.h"
#include "analyzer/baseline/Baseline.h"
#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/ProjectRoot.h"
#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/suppress/Suppressions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace streamlint {

int fail(const llvm::Twine &message, int code) {
  llvm::errs() << "streamlint: error: " << message << "\n";
  return code;
}

void printNotes(const AnalysisResult &result) {
  for (const std::string &note : result.notes)
    llvm::errs() << "streamlint: note: " << note << "\n";
}

void printSummary(const AnalysisResult &result) {
  unsigned warnings = 0, notes = 0;
  for (const Finding &finding : result.findings)
    (finding.severity == Severity::Note ? notes : warnings)++;
  llvm::errs() << "streamlint: " << warnings << " warning(s), " << notes
               << " note(s) in " << result.translationUnits
               << " translation unit(s)";
  if (!result.problems.empty())
    llvm::errs() << "; " << result.problems.size()
                 << " could not be analyzed fully";
  if (result.skippedWithoutCuda)
    llvm::errs() << "; " << result.skippedWithoutCuda
                 << " without CUDA skipped (--all-translation-units analyzes them)";
  if (result.fromIndex)
    llvm::errs() << "; " << result.fromIndex << " TU result(s) from the index";
  if (result.hiddenThirdParty)
    llvm::errs() << "; " << result.hiddenThirdParty
                 << " in third-party headers hidden (--third-party-headers shows them)";
  llvm::errs() << "\n";
  for (const TranslationUnitProblem &problem : result.problems) {
    if (!problem.fatalError.empty() && problem.analyzedPartially) {
      llvm::errs() << "streamlint: " << problem.file
                   << ": analyzed partially: clang stopped at a fatal error; "
                      "findings after it (and in templates instantiated "
                      "later) are likely missing:\n";
      for (const std::string &error : problem.errors)
        llvm::errs() << "  " << error << "\n";
      continue;
    }
    llvm::errs() << "streamlint: " << problem.file << ": "
                 << (problem.analyzedPartially ? "analyzed partially"
                                               : "not analyzed")
                 << (problem.internalError ? " because of an internal error in streamlint:\n"
                     : problem.crashed     ? " because clang crashed:\n"
                                           : " because of compile errors:\n");
    for (const std::string &error : problem.errors)
      llvm::errs() << "  " << error << "\n";
  }
}

std::string fixRootFor(const CommandLineOptions &options, const AnalysisPlan &plan) {
  if (!options.fixRoot.empty())
    return options.fixRoot;
  return projectRootOf(plan.databaseFiles);
}

/// Writes `text` to stdout or stderr; 0, or exit 2 with a message when the
/// stream cannot take it (a full disk, a closed pipe): a report cut short
/// must not pass for one whose exit code says "findings".
static int writeToStream(llvm::raw_fd_ostream &stream, llvm::StringRef text,
                         llvm::StringRef what) {
  stream << text;
  stream.flush();
  if (!stream.has_error())
    return 0;
  std::string why = stream.error().message();
  stream.clear_error(); // said here; not again as a fatal error at exit
  return fail("cannot write " + what + " to standard " +
                  (&stream == &llvm::outs() ? "output" : "error") + ": " + why,
              ExitUsageError);
}

/// --export-fixes, --fix, --fix-dry-run; only files under `root` change.
/// Returns an exit code when the run must stop (the YAML cannot be written).
static int runFixes(const CommandLineOptions &options,
                    const AnalysisResult &result, const std::string &root,
                    unsigned &skippedFixes) {
  FixOptions fixOptions{root, options.fixDryRun};
  if (!options.exportFixesPath.empty())
    if (llvm::Error error = exportFixes(result.findings, fixOptions,
                                        options.exportFixesPath))
      return fail(llvm::toString(std::move(error)), ExitUsageError);
  if (!options.fix && !options.fixDryRun)
    return 0;
  FixReport report = applyFixes(result.findings, fixOptions);
  if (int code = writeToStream(llvm::outs(), report.diff, "the fixes' diff"))
    return code;
  printFixReport(report, llvm::errs());
  skippedFixes = report.skipped.size();
  return 0;
}

int writeReportAndFixes(const CommandLineOptions &options,
                        const CheckRegistry &registry, AnalysisResult &result,
                        const std::string &fixRoot, unsigned &skippedFixes) {
  SourceTextCache sources; // each source file read once for all of the below
  for (const std::string &file : result.withheldFiles)
    sources.withhold(file);
  removeSuppressedFindings(result.findings, sources);

  OutputOptions output;
  output.rules = registry.rules();
  output.rules.push_back(nolintRuleInfo());
  output.toolVersion = STREAMLINT_VERSION;
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  output.baseDirectory = std::string(cwd);
  if (options.format == OutputFormat::Github)
    output.githubStepSummaryPath =
        llvm::sys::Process::GetEnv("GITHUB_STEP_SUMMARY").value_or("");
  if (llvm::Error error =
          applyBaselineOptions(options.baselinePath, options.writeBaselinePath,
                               result, output, sources))
    return fail(llvm::toString(std::move(error)), ExitUsageError);
  // The whole report is rendered first, then written in one piece: to a
  // file all or nothing (a temporary renamed over it), to a stream checked.
  std::string report;
  llvm::raw_string_ostream rendered(report);
  if (options.outputPath.empty()) {
    // With --fix-dry-run stdout is the diff (to pipe into `patch`/`git
    // apply`); the report goes to stderr.
    bool toStderr = options.fixDryRun;
    output.color = options.color == ColorMode::Always ||
                   (options.color == ColorMode::Auto &&
                    (toStderr ? llvm::sys::Process::StandardErrIsDisplayed()
                              : llvm::sys::Process::StandardOutIsDisplayed()));
    writeFindings(options.format, result, output, sources, rendered);
    if (int code = writeToStream(toStderr ? llvm::errs() : llvm::outs(), report,
                                 "the report"))
      return code;
  } else {
    output.color = options.color == ColorMode::Always;
    writeFindings(options.format, result, output, sources, rendered);
    std::string error;
    if (!writeFileAtomically(options.outputPath, report, error))
      return fail(options.outputPath + ": cannot write the report: " + error,
                  ExitUsageError);
  }
  // The report is complete on stdout before anything else is said on stderr.
  llvm::outs().flush();
  return runFixes(options, result, fixRoot.empty() ? output.baseDirectory : fixRoot,
                  skippedFixes);
}

} // namespace streamlint
