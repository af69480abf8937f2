#pragma once
// One analysis run: compile database in, sorted and deduplicated findings out.

#include "analyzer/Finding.h"
#include "analyzer/analysis/CheckOptions.h"
#include "analyzer/compiledb/CompileDatabase.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/Error.h"

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
};

/// Finds compile_commands.json in `start` or its parents (also under build/).
std::string findCompileDatabase(const std::string &start);

/// Loads the database, selects entries, analyzes them. Errors are usage or
/// input errors (exit code 2); TU failures are in AnalysisResult::problems.
llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry);

/// The clang invocations the analysis would run (--show-commands, benchmarks).
llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options);

/// Analyzes the given entries (tests call this directly).
AnalysisResult analyzeEntries(const std::vector<CompileEntry> &entries,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry);

} // namespace streamlint
