// The stable JSON schema documented in docs/output-formats.md ("version": 1).
// Field names are a contract: add fields, never rename or remove them.
#include "analyzer/output/JsonSchema.h"
#include "analyzer/output/OutputCommon.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

#include <algorithm>
#include <map>

namespace streamlint {
namespace {

using Json = nlohmann::ordered_json;

Json point(const SourcePoint &p) {
  return Json{{"file", p.file}, {"line", p.line}, {"column", p.column}};
}

Json edit(const TextEdit &e, SourceTextCache &sources) {
  SourcePoint begin = e.begin, end = e.end;
  if (begin.line == 0)
    if (auto lc = sources.lineAndColumn(e.file, e.offset))
      begin = SourcePoint{e.file, lc->first, lc->second};
  if (end.line == 0)
    if (auto lc = sources.lineAndColumn(e.file, e.offset + e.length))
      end = SourcePoint{e.file, lc->first, lc->second};
  return Json{{"file", e.file},         {"offset", e.offset},
              {"length", e.length},     {"replacement", e.replacement},
              {"line", begin.line},     {"column", begin.column},
              {"end_line", end.line},   {"end_column", end.column}};
}

Json finding(const Finding &f, SourceTextCache &sources) {
  Json j{{"check", f.checkId},
         {"severity", severityName(f.severity)},
         {"file", f.location.file},
         {"line", f.location.line},
         {"column", f.location.column},
         {"end_line", f.end.line},
         {"end_column", f.end.column},
         {"message", f.message},
         {"function", f.function}};
  Json related = Json::array();
  for (const RelatedLocation &r : f.related) {
    Json entry = point(r.location);
    entry["message"] = r.message;
    related.push_back(std::move(entry));
  }
  j["related"] = std::move(related);
  Json fixes = Json::array();
  for (const FixIt &fix : f.fixes) {
    Json edits = Json::array();
    for (const TextEdit &e : fix.edits)
      edits.push_back(edit(e, sources));
    fixes.push_back(Json{{"description", fix.description},
                         {"applicable", fix.applicable},
                         {"edits", std::move(edits)}});
  }
  j["fixes"] = std::move(fixes);
  if (f.dynamic) {
    const DynamicEvidence &d = *f.dynamic;
    j["dynamic"] = Json{{"status", dynamicStatusName(d.status)},
                        {"calls", d.calls},
                        {"misuses", d.misuses},
                        {"host_time_us", d.hostTimeUs},
                        {"bytes", d.bytes},
                        {"detail", d.detail}};
  }
  j["fingerprint"] = f.fingerprint;
  return j;
}

Json summary(const AnalysisResult &result) {
  std::map<std::string, unsigned> bySeverity{
      {"note", 0}, {"warning", 0}, {"error", 0}};
  std::map<std::string, unsigned> byCheck;
  for (const Finding &f : result.findings) {
    ++bySeverity[severityName(f.severity)];
    ++byCheck[f.checkId];
  }
  return Json{{"findings", result.findings.size()},
              {"by_severity", bySeverity},
              {"by_check", byCheck},
              {"translation_units", result.translationUnits},
              {"problems", result.problems.size()},
              {"skipped_without_cuda", result.skippedWithoutCuda},
              {"hidden_third_party", result.hiddenThirdParty}};
}

} // namespace

void writeJson(const AnalysisResult &result, const OutputOptions &options,
               SourceTextCache &sources, llvm::raw_ostream &out) {
  // Deterministic order whatever the producer did: diffs of two runs stay small.
  std::vector<const Finding *> ordered;
  for (const Finding &f : result.findings)
    ordered.push_back(&f);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Finding *a, const Finding *b) {
                     return findingLess(*a, *b);
                   });
  Json findings = Json::array();
  for (const Finding *f : ordered)
    findings.push_back(finding(*f, sources));
  Json problems = Json::array();
  for (const TranslationUnitProblem &p : result.problems)
    problems.push_back(Json{
        {"file", p.file},
        {"errors", p.errors},
        {"partial", p.analyzedPartially},
        {"fatal_error", p.fatalError.empty() ? Json() : Json(p.fatalError)},
        {"message", incompleteAnalysisMessage(p, p.errors.size())}});
  Json document{{"version", kJsonSchemaVersion},
                {"tool",
                 Json{{"name", "streamlint"},
                      {"version", options.toolVersion},
                      {"information_uri", options.informationUri}}},
                {"base_directory", options.baseDirectory},
                {"findings", std::move(findings)},
                {"problems", std::move(problems)},
                {"summary", summary(result)}};
  out << dumpJson(document) << "\n";
}

} // namespace streamlint
