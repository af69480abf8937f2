// Minimal first version: clang-style text lines only.
// The full writers (source line and caret, json, sarif, ...) land with the outputs work.
#include "analyzer/output/Output.h"

namespace streamlint {

std::optional<OutputFormat> parseOutputFormat(const std::string &name) {
  if (name == "text")
    return OutputFormat::Text;
  if (name == "json")
    return OutputFormat::Json;
  if (name == "sarif")
    return OutputFormat::Sarif;
  if (name == "github")
    return OutputFormat::Github;
  if (name == "gitlab")
    return OutputFormat::Gitlab;
  return std::nullopt;
}

void writeFindings(OutputFormat, const AnalysisResult &result,
                   const OutputOptions &, llvm::raw_ostream &out) {
  for (const Finding &f : result.findings)
    out << f.location.file << ":" << f.location.line << ":" << f.location.column
        << ": " << severityName(f.severity) << ": " << f.message << " ["
        << f.checkId << "]\n";
}

} // namespace streamlint
