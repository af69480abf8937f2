#include "analyzer/output/Output.h"

#include "analyzer/baseline/Fingerprint.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

#include <algorithm>

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
  const AnalysisResult *input = &result;
  AnalysisResult filled;
  if (std::any_of(result.findings.begin(), result.findings.end(),
                  [](const Finding &f) { return f.fingerprint.empty(); })) {
    filled = result;
    assignFingerprints(filled.findings, options.baseDirectory, sources);
    input = &filled;
  }
  switch (format) {
  case OutputFormat::Text:
    return writeText(*input, options, sources, out);
  case OutputFormat::Json:
    return writeJson(*input, options, sources, out);
  case OutputFormat::Sarif:
    return writeSarif(*input, options, sources, out);
  case OutputFormat::Github:
    return writeGithub(*input, options, sources, out);
  case OutputFormat::Gitlab:
    return writeGitlab(*input, options, sources, out);
  }
}

} // namespace streamlint
