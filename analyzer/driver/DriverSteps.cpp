#include "analyzer/driver/DriverSteps.h"

#include "analyzer/driver/ExitCode.h"
#include "analyzer/driver/ReportPolicy.h"
#include "analyzer/OutputFile.h"
#include "analyzer/baseline/Baseline.h"
#include "analyzer/baseline/Fingerprint.h"
#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/FixPrerequisites.h"
#include "analyzer/fix/ProjectRoot.h"
#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/suppress/Suppressions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>

namespace streamlint {

int fail(const llvm::Twine &message, int code) {
  llvm::errs() << "streamlint: error: " << message << "\n";
  return code;
}

void printNotes(const AnalysisResult &result) {
  for (const std::string &note : result.notes)
    llvm::errs() << "streamlint: note: " << note << "\n";
}

void printSummary(const AnalysisResult &result, const SummaryCounts &counts,
                  double elapsedSeconds) {
  unsigned errors = 0, warnings = 0, notes = 0;
  std::map<std::string, std::array<unsigned, 3>> byCheck; // note, warning, error
  for (const Finding &finding : result.findings) {
    (finding.severity == Severity::Note      ? notes
     : finding.severity == Severity::Warning ? warnings
                                             : errors)++;
    ++byCheck[finding.checkId][static_cast<int>(finding.severity)];
  }
  llvm::errs() << "streamlint: ";
  if (errors) // --warnings-as-errors; otherwise the line reads as it always did
    llvm::errs() << errors << " error(s), ";
  llvm::errs() << warnings << " warning(s), " << notes
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
  llvm::errs() << "; " << counts.parsed << " parsed; "
               << llvm::format("%.1f", elapsedSeconds) << " s";
  if (counts.preamblesReused || counts.preamblesBuilt || counts.preamblesDeferred)
    llvm::errs() << "; preambles: " << counts.preamblesReused << " reused, "
                 << counts.preamblesBuilt << " built";
  if (counts.preamblesDeferred)
    llvm::errs() << ", " << counts.preamblesDeferred
                 << " deferred (a prefix no other TU shares: built when its TU is analyzed again)";
  llvm::errs() << "\n";
  for (const auto &[check, counts] : byCheck) {
    llvm::errs() << "  " << check << ":";
    const char *separator = " ";
    for (Severity severity : {Severity::Error, Severity::Warning, Severity::Note})
      if (unsigned count = counts[static_cast<int>(severity)]) {
        llvm::errs() << separator << count << " " << severityName(severity) << "(s)";
        separator = ", ";
      }
    llvm::errs() << "\n";
  }
  const SummaryCounts &hidden = counts;
  std::vector<std::string> hiddenBy;
  auto add = [&](unsigned count, const char *why) {
    if (count)
      hiddenBy.push_back(std::to_string(count) + " " + why);
  };
  add(hidden.nolint, "by NOLINT");
  add(hidden.baseline, "in the baseline");
  add(hidden.headerFilter, "outside the header filter or in ExcludePaths");
  add(hidden.belowSeverity, "below the minimum severity");
  add(hidden.outsideDiff, "not on a changed line");
  if (!hiddenBy.empty())
    llvm::errs() << "  not reported: " << llvm::join(hiddenBy, "; ") << "\n";
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
  return projectRootOf(plan.databaseFiles,
                       std::string(llvm::sys::path::parent_path(plan.databasePath)));
}

/// Automatic colors also need the environment's consent: NO_COLOR set to
/// anything but "" (no-color.org) or TERM=dumb turn them off.
static bool colorsWelcome() {
  if (!llvm::sys::Process::GetEnv("NO_COLOR").value_or("").empty())
    return false;
  return llvm::sys::Process::GetEnv("TERM").value_or("") != "dumb";
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
  FixOptions fixOptions{root, options.fixDryRun, options.fixNotes};
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
                        const std::string &fixRoot, const ChangedLines *changed,
                        SummaryCounts &counts, unsigned &skippedFixes) {
  SourceTextCache sources; // each source file read once for all of the below
  for (const std::string &file : result.withheldFiles)
    sources.withhold(file);
  // A fix relying on another check's fix (FixPrerequisites.h) is refused by
  // the first step that leaves that fix out: the analysis (the check not
  // enabled, the fix a suggestion), NOLINT, the baseline, the report policy.
  auto absent = [](const char *why) {
    return [why](const FixPrerequisite &) { return std::string("its finding is ") + why; };
  };
  size_t before = result.findings.size();
  removeSuppressedFindings(result.findings, sources);
  counts.nolint += before - result.findings.size();
  settleFixPrerequisites(result.findings, absent("suppressed by NOLINT"));

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
  // Each finding's fingerprint, assigned once here over the full list (before
  // the baseline or the report policy removes any, so the occurrence indices
  // match a full run's): --write-baseline, --baseline and every writer use it.
  assignFingerprints(result.findings, output.baseDirectory, sources);
  before = result.findings.size();
  if (llvm::Error error =
          applyBaselineOptions(options.baselinePath, options.writeBaselinePath,
                               result, output, sources))
    return fail(llvm::toString(std::move(error)), ExitUsageError);
  counts.baseline += before - result.findings.size();
  settleFixPrerequisites(result.findings, absent("in the baseline"));
  if (llvm::Error error =
          applyReportPolicy(result, options.analyzer.config, registry, changed, counts))
    return fail(llvm::toString(std::move(error)), ExitUsageError);
  settleFixPrerequisites(result.findings,
                         absent("not reported (below the minimum severity, outside the "
                                "header filter, or not on a changed line)"));
  // The whole report is rendered first, then written in one piece: to a
  // file all or nothing (a temporary renamed over it), to a stream checked.
  std::string report;
  llvm::raw_string_ostream rendered(report);
  if (options.outputPath.empty()) {
    // With --fix-dry-run stdout is the diff (to pipe into `patch`/`git
    // apply`); the report goes to stderr.
    bool toStderr = options.fixDryRun;
    output.color = options.color == ColorMode::Always ||
                   (options.color == ColorMode::Auto && colorsWelcome() &&
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
