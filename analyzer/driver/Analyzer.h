#pragma once
// One analysis run: compile database in, sorted and deduplicated findings out.

#include "analyzer/Finding.h"
#include "analyzer/analysis/CheckOptions.h"
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/config/ConfigResolver.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

struct AnalyzerOptions {
  std::string buildPath;               // -p; "" searches up from the cwd
  std::vector<std::string> files;      // restrict to these; empty = all entries
  TranslateOptions translate;
  unsigned jobs = 0;                   // 0 = all cores
  std::string checks = "*";
  CheckOptions checkOptions;
  /// Config files: when set, each TU gets its main file's .streamlint.yaml
  /// (see analyzer/config) under these command-line overrides, which the
  /// driver fills from the same options as `checks` and `checkOptions`.
  /// Unset (in-process users, tests): no file is read.
  std::optional<ConfigOverrides> config;
  bool skipFilesNotInDatabase = false; // named files with no entry: skip them
  /// Skip TUs that use no CUDA (CudaUsageScan). The command line sets it when
  /// no file is named and --all-translation-units is absent; off for
  /// in-process users and tests unless they ask.
  bool skipTranslationUnitsWithoutCuda = false;
};

/// One translation unit and the settings it is analyzed with.
struct PlannedUnit {
  CompileEntry entry;
  EffectiveConfig config;
};

/// What a run analyzes, decided before any TU is parsed.
struct AnalysisPlan {
  std::string databasePath;               // the compile_commands.json read
  std::vector<PlannedUnit> units;
  std::vector<std::string> skippedFiles;  // named, no entry (--skip-files-not-in-database)
  std::vector<std::string> excludedFiles; // matched their config's ExcludePaths
};

/// Finds compile_commands.json in `start` or its parents (also under build/).
std::string findCompileDatabase(const std::string &start);

/// Loads the database, selects entries, analyzes them. Errors are usage or
/// input errors (exit code 2); TU failures are in AnalysisResult::problems.
llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry);

/// Loads the database, selects entries and resolves each one's config.
/// Errors (exit code 2) name the file: database, missing entry, bad config.
llvm::Expected<AnalysisPlan> planAnalysis(const AnalyzerOptions &options,
                                          const CheckRegistry &registry);

/// Analyzes a plan's units in parallel (options.jobs).
AnalysisResult runPlan(const AnalysisPlan &plan, const AnalyzerOptions &options,
                       const CheckRegistry &registry);

/// The clang invocations the analysis would run (--show-commands, benchmarks).
llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options);

/// Analyzes the given entries (tests call this directly).
AnalysisResult analyzeEntries(const std::vector<CompileEntry> &entries,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry);

} // namespace streamlint
