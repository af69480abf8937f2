#pragma once
// All of streamlint's command-line options, parsed into one plain struct.

#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/ExitCode.h"
#include "analyzer/driver/Shards.h"
#include "analyzer/output/Output.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace streamlint {

enum class ColorMode { Auto, Always, Never };

/// Everything the user asked for on the command line.
struct CommandLineOptions {
  AnalyzerOptions analyzer;
  OutputFormat format = OutputFormat::Text;
  std::string outputPath;   // "" = stdout
  std::vector<std::string> tracePaths; // --trace (files or directories)
  std::string baselinePath;      // --baseline: report only new findings
  std::string writeBaselinePath; // --write-baseline
  ColorMode color = ColorMode::Auto;
  bool listChecks = false;
  /// --checks was given (its value is analyzer.checks).
  bool checksGiven = false;
  /// --allow-no-checks: a selection that enables no check is not an error.
  bool allowNoChecks = false;
  bool showCommands = false;  // print the clang command per TU and exit
  bool dumpConfig = false;    // print the effective config and exit
  bool fix = false;           // --fix: apply the applicable fixes
  bool fixDryRun = false;     // --fix-dry-run: print them as a unified diff
  std::string exportFixesPath; // --export-fixes: clang-apply-replacements YAML
  bool fixNotes = false;      // --fix-notes: also apply suggested fixes
  std::string fixRoot;        // --fix-root: where fixes may write ("" = the project)
  bool quiet = false;
  /// --diff-base REV / --diff-file FILE: report only findings on changed lines.
  std::string diffBase;
  std::string diffFile;
  /// --shard=I/N: analyze 1/N of the TUs, write the part to outputPath.
  ShardSpec shard;
  /// --merge-shards: the positional arguments are shard parts (or
  /// directories of them), merged into one whole-database report.
  std::vector<std::string> shardParts;
  /// --partial-analysis: whether an incompletely analyzed TU exits 3.
  PartialAnalysisPolicy partialAnalysis = PartialAnalysisPolicy::Error;
};

/// Parses argv; --help and --version print and exit inside. Errors are usage
/// errors (exit code 2).
llvm::Expected<CommandLineOptions> parseCommandLine(int argc, const char **argv);

} // namespace streamlint
