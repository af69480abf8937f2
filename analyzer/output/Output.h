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

struct OutputOptions {
  bool color = false;              // text only; the driver sets it on a TTY
  std::string baseDirectory;       // relative URIs / paths are taken against it
  std::string toolVersion;         // semantic version for SARIF
  std::vector<RuleInfo> rules;     // every registered check, sorted by id
};

/// Writes `result` in `format` to `out`.
void writeFindings(OutputFormat format, const AnalysisResult &result,
                   const OutputOptions &options, llvm::raw_ostream &out);

} // namespace streamlint
