// GitLab Code Quality report: a JSON array of Code Climate issues. GitLab
// matches issues between pipelines by fingerprint, so it must be stable.
#include "analyzer/output/JsonSchema.h"
#include "analyzer/output/OutputCommon.h"
#include "analyzer/output/Writers.h"

namespace streamlint {
namespace {

using Json = nlohmann::ordered_json;

/// GitLab's scale is info|minor|major|critical|blocker. A warning the probe
/// confirmed at run time is a measured cost, so it ranks one step higher.
const char *gitlabSeverity(const Finding &f) {
  bool confirmed = f.dynamic && f.dynamic->status == DynamicStatus::Confirmed;
  switch (f.severity) {
  case Severity::Note:
    return "info";
  case Severity::Warning:
    return confirmed ? "major" : "minor";
  case Severity::Error:
    return confirmed ? "critical" : "major";
  }
  return "minor";
}

} // namespace

void writeGitlab(const AnalysisResult &result, const OutputOptions &options,
                 SourceTextCache &, llvm::raw_ostream &out) {
  Json issues = Json::array();
  for (const Finding *f : reportOrder(result.findings)) {
    std::string description = f->message;
    if (f->dynamic)
      description += " [" + dynamicSummary(*f->dynamic) + "]";
    issues.push_back(Json{
        {"description", description},
        {"check_name", f->checkId},
        {"fingerprint", f->fingerprint},
        {"severity", gitlabSeverity(*f)},
        {"location",
         Json{{"path", displayPath(f->location.file, options.baseDirectory)},
              {"lines", Json{{"begin", f->location.line}}}}}});
  }
  out << dumpJson(issues) << "\n";
}

} // namespace streamlint
