#pragma once
// One analysis run: compile database in, sorted and deduplicated findings out.

#include "analyzer/Finding.h"
#include "analyzer/config/CheckOptions.h"
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
  bool crashRecovery = true;           // a TU that crashes clang fails alone
  /// Skip TUs that use no CUDA (CudaUsageScan). The command line sets it when
  /// no file is named and --all-translation-units is absent; off for
  /// in-process users and tests unless they ask.
  bool skipTranslationUnitsWithoutCuda = false;
  /// With files named, analyze (or read from the index) every other TU of
  /// the database too, for the whole-program pass; only findings in the
  /// named files (and the headers their TUs include) are reported. Set by
  /// the command line; off for in-process users and tests unless they ask.
  bool wholeProgramContext = false;
  /// Whether context TUs without CUDA are skipped (as a run naming no file
  /// skips them): the command line sets it unless --all-translation-units.
  bool skipContextWithoutCuda = false;
  /// The project index: off unless set; cacheDirectory "" = beside the
  /// compile database (<dir>/.streamlint).
  bool useIndex = false;
  std::string cacheDirectory;
  /// With the index: parse each TU's include prefix once into a preamble
  /// kept beside it (analyzer/index/PreambleStore.h), at most this many
  /// bytes of them (0: no limit).
  bool preambles = true;
  uint64_t preambleLimitBytes = uint64_t(4) << 30;
  /// `[N/M] file` on stderr as each TU finishes (analyzer/driver/Progress.h).
  bool progress = false;
  /// Report findings in headers outside the project (--third-party-headers);
  /// by default they are hidden and counted (ThirdPartyHeaders.h).
  bool reportThirdPartyHeaders = false;
  std::string fixRoot; // --fix-root: part of the project too
};

/// What a run's summary says beyond AnalysisResult: TUs parsed in this run
/// (whole-program context included), and findings not reported, by why.
struct SummaryCounts {
  unsigned parsed = 0;
  unsigned preamblesReused = 0; // parses on a preamble kept from before
  unsigned preamblesBuilt = 0;  // parses on a preamble built for them
  unsigned preamblesDeferred = 0; // parsed whole: own prefix, first analysis
  unsigned headerFilter = 0;  // outside HeaderFilterRegex or in ExcludePaths
  unsigned nolint = 0;        // NOLINT comments
  unsigned baseline = 0;      // in the --baseline
  unsigned belowSeverity = 0; // below --min-severity / MinSeverity
  unsigned outsideDiff = 0;   // not on a changed line (--diff-base, --diff-file)
};

/// One translation unit and the settings it is analyzed with.
struct PlannedUnit {
  CompileEntry entry;
  EffectiveConfig config;
  /// Named on the command line (or all, when none is): its findings and
  /// problems are reported. Others only give whole-program context.
  bool reported = true;
  /// Interpolated: analyze this file with `entry`'s (a neighbour's) command.
  std::string substituteFile;
  /// ClangInvocation::walkedDirectories (setWalkedDirectories).
  std::vector<std::string> walkedDirectories;
};

/// A header named on the command line: reported through the TUs that
/// include it, or with a neighbour's command when none does.
struct NamedHeader {
  std::string path;      // absolute, clean (as findings' paths are)
  std::string realPath;  // symbolic links resolved
  EffectiveConfig config;
};

/// What a run analyzes, decided before any TU is parsed.
struct AnalysisPlan {
  std::string databasePath;               // the compile_commands.json read
  std::vector<std::string> databaseFiles; // every entry's file, selected or not
  std::vector<PlannedUnit> units;
  std::vector<std::string> skippedFiles;  // named, no entry (--skip-files-not-in-database)
  std::vector<std::string> excludedFiles; // matched their config's ExcludePaths
  bool namedFiles = false;                // files were named: report only theirs
  std::vector<NamedHeader> namedHeaders;
  std::string cacheDirectory;             // "" = no project index
  /// The project's directories; findings in headers outside them are
  /// hidden. Empty: every file is the project's.
  std::vector<std::string> projectDirectories;
  std::vector<std::string> notes;         // interpolated commands, ...
};

/// Finds compile_commands.json in `start` or its parents (also under build/).
std::string findCompileDatabase(const std::string &start);

/// Loads the database, selects entries, analyzes them. Errors are usage or
/// input errors (exit code 2); TU failures are in AnalysisResult::problems.
llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry);

/// Loads the database, selects entries and resolves each one's config.
/// Errors (exit code 2) name the file: database, missing entry, bad config.
/// The directories a unit with `config` walks (walkedDirectoriesOf).
std::vector<std::string> walkedDirectoriesIn(const AnalysisPlan &plan,
                                             const EffectiveConfig &config);

llvm::Expected<AnalysisPlan> planAnalysis(const AnalyzerOptions &options,
                                          const CheckRegistry &registry);

/// Analyzes a plan's units in parallel (options.jobs); `counts`, when
/// given, receives what the summary says beyond the result.
AnalysisResult runPlan(const AnalysisPlan &plan, const AnalyzerOptions &options,
                       const CheckRegistry &registry, SummaryCounts *counts = nullptr);

/// The clang invocations the analysis would run (--show-commands, benchmarks).
llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options);

/// Analyzes the given entries (tests call this directly).
AnalysisResult analyzeEntries(const std::vector<CompileEntry> &entries,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry);

} // namespace streamlint
