#include "analyzer/output/Output.h"

#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

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

void writeFindings(OutputFormat format, const AnalysisResult &result,
                   const OutputOptions &options, llvm::raw_ostream &out) {
  SourceTextCache sources;
  writeFindings(format, result, options, sources, out);
}

void writeFindings(OutputFormat format, const AnalysisResult &result,
                   const OutputOptions &options, SourceTextCache &sources,
                   llvm::raw_ostream &out) {
  switch (format) {
  case OutputFormat::Text:
    return writeText(result, options, sources, out);
  case OutputFormat::Json:
    return writeJson(result, options, sources, out);
  case OutputFormat::Sarif:
    return writeSarif(result, options, sources, out);
  case OutputFormat::Github:
    return writeGithub(result, options, sources, out);
  case OutputFormat::Gitlab:
    return writeGitlab(result, options, sources, out);
  }
}

} // namespace streamlint
