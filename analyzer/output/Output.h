#pragma once
// Rendering an AnalysisResult: text (clang style), json, sarif, github, gitlab.

#include "analyzer/Finding.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

enum class OutputFormat { Text, Json, Sarif, Github, Gitlab };

/// "text", "json", "sarif", "github", "gitlab"; nullopt for anything else.
std::optional<OutputFormat> parseOutputFormat(const std::string &name);

/// Where people learn about streamlint (SARIF tool.driver.informationUri).
inline constexpr const char *kStreamlintHomepage =
    "https://github.com/streamlint/streamlint";

struct OutputOptions {
  bool color = false;              // text only; the driver sets it on a TTY
  std::string baseDirectory;       // relative URIs / paths are taken against it
  std::string toolVersion;         // semantic version for SARIF
  std::vector<RuleInfo> rules;     // every registered check, sorted by id
  // Added by the outputs work:
  std::string githubStepSummaryPath; // github: append a Markdown table here
                                     // ($GITHUB_STEP_SUMMARY; empty: none)
  bool baselineCompared = false;   // findings were filtered by --baseline:
                                   // SARIF marks them baselineState "new"
  std::string informationUri = kStreamlintHomepage;
};

/// Writes `result` in `format` to `out`. The writers print each finding's
/// fingerprint as it is: the driver assigns them once, before the baseline
/// and the outputs (assignFingerprints, analyzer/baseline/Fingerprint.h).
void writeFindings(OutputFormat format, const AnalysisResult &result,
                   const OutputOptions &options, llvm::raw_ostream &out);

class SourceTextCache;
/// The same, reusing source files already read (suppressions, fingerprints).
void writeFindings(OutputFormat format, const AnalysisResult &result,
                   const OutputOptions &options, SourceTextCache &sources,
                   llvm::raw_ostream &out);

} // namespace streamlint
