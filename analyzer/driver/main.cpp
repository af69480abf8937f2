// streamlint: parse options, analyze, merge a trace, write the report.
#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/CommandLine.h"
#include "analyzer/driver/ConfigCommands.h"
#include "analyzer/driver/CrashIsolation.h"
#include "analyzer/driver/DriverSteps.h"
#include "analyzer/driver/ExitCode.h"
#include "analyzer/trace/TraceMerge.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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
  if (options->listChecks) {
    for (const RuleInfo &rule : registry.rules())
      llvm::outs() << rule.id << ": " << rule.shortDescription << "\n";
    return ExitClean;
  }
  if (options->showCommands)
    return showCommands(options->analyzer);
  if (options->dumpConfig) {
    if (llvm::Error error = dumpEffectiveConfig(options->analyzer, registry, llvm::outs()))
      return fail(llvm::toString(std::move(error)), ExitUsageError);
    return ExitClean;
  }
  CheckSelection selection(options->analyzer.checks);
  for (const std::string &glob : selection.unmatched(registry))
    llvm::errs() << "streamlint: warning: --checks: '" << glob
                 << "' matches no check (see --list-checks)\n";

  auto plan = planAnalysis(options->analyzer, registry);
  if (!plan)
    return fail(llvm::toString(plan.takeError()), ExitUsageError);
  if (std::string note = skippedFilesNote(*plan); !note.empty())
    llvm::errs() << note << "\n";
  if (options->shard.count)
    return exitCodeAfterIsolatedWork(runShard(*plan, options->analyzer, registry,
                                              options->shard, options->outputPath,
                                              options->quiet));
  AnalysisResult result;
  if (!options->shardParts.empty()) {
    auto merged = mergeShards(*plan, options->analyzer, options->shardParts);
    if (!merged)
      return fail(llvm::toString(merged.takeError()), ExitUsageError);
    result = std::move(*merged);
  } else {
    result = runPlan(*plan, options->analyzer, registry);
  }
  std::string fixRoot = fixRootFor(*options, *plan);
  if (!options->tracePaths.empty())
    if (llvm::Error error = mergeTraceFiles(options->tracePaths, result,
                                           {fixRoot, plan->databaseFiles})) {
      printNotes(result);
      return exitCodeAfterIsolatedWork(
          fail(llvm::toString(std::move(error)), ExitUsageError));
    }
  printNotes(result); // the analysis's and the merge's

  unsigned skippedFixes = 0;
  if (int code = writeReportAndFixes(*options, registry, result, fixRoot, skippedFixes))
    return exitCodeAfterIsolatedWork(code);
  if (!options->quiet)
    printSummary(result);
  return exitCodeAfterIsolatedWork(
      exitCodeFor(result, options->partialAnalysis, skippedFixes));
}
