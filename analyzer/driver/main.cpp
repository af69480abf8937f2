// streamlint: parse options, analyze, merge a trace, write the report.
#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/CheckSelectionProblems.h"
#include "analyzer/driver/CommandLine.h"
#include "analyzer/driver/ConfigCommands.h"
#include "analyzer/driver/CrashIsolation.h"
#include "analyzer/driver/DriverSteps.h"
#include "analyzer/driver/ExitCode.h"
#include "analyzer/driver/ReportPolicy.h"
#include "analyzer/trace/TraceMerge.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>

using namespace streamlint;

int main(int argc, const char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Past a file size limit (ulimit -f) a write fails with EFBIG, which is
  // reported like a full disk; LLVM's handler would make it a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  auto options = parseCommandLine(argc, argv);
  if (!options)
    return fail(llvm::toString(options.takeError()), ExitUsageError);

  CheckRegistry registry;
  registerAllChecks(registry);
  if (options->checksGiven)
    if (std::string problem = commandLineChecksProblem(options->analyzer.checks, registry,
                                                       options->allowNoChecks);
        !problem.empty())
      return fail(problem, ExitUsageError);
  if (options->analyzer.config && options->analyzer.config->warningsAsErrors)
    if (std::string problem = unknownCheckGlobProblem(
            "--warnings-as-errors", *options->analyzer.config->warningsAsErrors, registry);
        !problem.empty())
      return fail(problem, ExitUsageError);
  if (options->listChecks) {
    if (options->format != OutputFormat::Text && options->format != OutputFormat::Json)
      return fail("--list-checks: --format text or json", ExitUsageError);
    if (llvm::Error error =
            listEnabledChecks(options->analyzer, registry,
                              options->format == OutputFormat::Json,
                              options->allowNoChecks, llvm::outs()))
      return fail(llvm::toString(std::move(error)), ExitUsageError);
    return ExitClean;
  }
  if (options->showCommands)
    return showCommands(options->analyzer);
  if (options->dumpConfig) {
    if (llvm::Error error = dumpEffectiveConfig(options->analyzer, registry, llvm::outs()))
      return fail(llvm::toString(std::move(error)), ExitUsageError);
    return ExitClean;
  }
  // A diff is read before the analysis, so a bad one fails at once.
  std::optional<ChangedLines> changed;
  if (!options->diffBase.empty() || !options->diffFile.empty()) {
    llvm::SmallString<256> cwd;
    llvm::sys::fs::current_path(cwd);
    auto lines = options->diffBase.empty()
                     ? ChangedLines::fromDiffFile(options->diffFile)
                     : ChangedLines::sinceRevision(options->diffBase, cwd);
    if (!lines)
      return fail(llvm::toString(lines.takeError()), ExitUsageError);
    changed = std::move(*lines);
  }
  auto started = std::chrono::steady_clock::now();
  auto plan = planAnalysis(options->analyzer, registry);
  if (!plan)
    return fail(llvm::toString(plan.takeError()), ExitUsageError);
  if (!options->allowNoChecks)
    if (std::string problem = planChecksProblem(*plan, registry); !problem.empty())
      return fail(problem, ExitUsageError);
  if (std::string note = skippedFilesNote(*plan); !note.empty())
    llvm::errs() << note << "\n";
  if (options->shard.count)
    return exitCodeAfterIsolatedWork(runShard(*plan, options->analyzer, registry,
                                              options->shard, options->outputPath,
                                              options->quiet));
  AnalysisResult result;
  SummaryCounts counts;
  if (!options->shardParts.empty()) {
    auto merged = mergeShards(*plan, options->analyzer, options->shardParts);
    if (!merged)
      return fail(llvm::toString(merged.takeError()), ExitUsageError);
    result = std::move(*merged);
  } else {
    result = runPlan(*plan, options->analyzer, registry, &counts);
  }
  std::string fixRoot = fixRootFor(*options, *plan);
  if (!options->tracePaths.empty())
    if (llvm::Error error = mergeTraceFiles(
            options->tracePaths, result,
            {fixRoot, plan->databaseFiles,
             checkSelectionAt(options->analyzer.config, registry)})) {
      printNotes(result);
      return exitCodeAfterIsolatedWork(
          fail(llvm::toString(std::move(error)), ExitUsageError));
    }
  printNotes(result); // the analysis's and the merge's

  unsigned skippedFixes = 0;
  if (int code = writeReportAndFixes(*options, registry, result, fixRoot,
                                     changed ? &*changed : nullptr, counts, skippedFixes))
    return exitCodeAfterIsolatedWork(code);
  if (!options->quiet)
    printSummary(result, counts, std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                       started)
                             .count());
  // --write-baseline records the findings; that is the run's purpose, not a
  // failure (incomplete TUs and skipped fixes still say so). With --baseline
  // too, the new findings still count.
  if (!options->writeBaselinePath.empty() && options->baselinePath.empty())
    result.findings.clear();
  return exitCodeAfterIsolatedWork(
      exitCodeFor(result, options->partialAnalysis, skippedFixes));
}
