// SARIF 2.1.0 for GitHub code scanning and IDE viewers. Columns are Unicode
// code points (run.columnKind), converted from clang's byte columns.
#include "analyzer/output/JsonSchema.h"
#include "analyzer/output/OutputCommon.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

#include <cctype>
#include <map>

namespace streamlint {
namespace {

using Json = nlohmann::ordered_json;

// GitHub code scanning rejects runs above these (its documented limits: 25k
// results a run, 1,000 locations a result).
constexpr std::size_t kMaxResults = 25000;
constexpr std::size_t kMaxRelatedLocations = 1000;
constexpr const char *kSrcRoot = "%SRCROOT%";

// SARIF's level names are streamlint's severity names.
const char *sarifLevel(Severity severity) { return severityName(severity); }

Json text(const std::string &s) { return Json{{"text", s}}; }

/// helpUri must be an absolute URI; a repository path ("docs/checks/x.md")
/// is taken relative to the project's source tree on its homepage.
std::string absoluteHelpUri(const std::string &uri, const std::string &home) {
  llvm::StringRef ref = uri;
  std::size_t colon = ref.find(':');
  bool hasScheme = colon != llvm::StringRef::npos && colon > 0 &&
                   ref.take_front(colon).find_first_of("/?#") == llvm::StringRef::npos;
  if (hasScheme || uri.empty())
    return uri;
  return home + "/blob/main/" + encodeUriPath(ref.ltrim('/').str());
}

Json rule(const RuleInfo &r, const std::string &home) {
  return Json{{"id", r.id},
              {"shortDescription", text(r.shortDescription)},
              {"fullDescription", text(r.fullDescription)},
              {"help", text(r.helpText)},
              {"helpUri", absoluteHelpUri(r.helpUri, home)},
              {"defaultConfiguration",
               Json{{"level", sarifLevel(r.defaultSeverity)}}}};
}

/// A rule for a check id the driver did not describe (e.g. streamlint-nolint
/// or a runtime-only finding), so every result still has a ruleIndex.
RuleInfo describeUnknownRule(const std::string &id, const std::string &uri) {
  RuleInfo r;
  r.id = id;
  r.shortDescription = "Findings of the " + id + " check.";
  r.fullDescription = "Findings reported by streamlint's " + id + " check.";
  r.helpText = "See the streamlint documentation for " + id + ".";
  r.helpUri = uri;
  return r;
}

class SarifBuilder {
public:
  SarifBuilder(const OutputOptions &options, SourceTextCache &sources)
      : options_(options), sources_(sources) {}

  Json artifact(const std::string &file) {
    if (std::optional<std::string> relative =
            pathUnderBase(file, options_.baseDirectory))
      return Json{{"uri", encodeUriPath(*relative)}, {"uriBaseId", kSrcRoot}};
    return Json{{"uri", fileUri(file)}};
  }

  /// A region from 1-based byte positions; `endColumn` is exclusive.
  Json region(const std::string &file, unsigned line, unsigned column,
              unsigned endLine, unsigned endColumnExclusive) {
    Json r{{"startLine", line}};
    if (column != 0)
      r["startColumn"] = sources_.codePointColumn(file, line, column);
    if (endLine != 0) {
      r["endLine"] = endLine;
      if (endColumnExclusive != 0)
        r["endColumn"] =
            sources_.codePointColumn(file, endLine, endColumnExclusive);
    }
    return r;
  }

  Json location(const SourcePoint &at, const SourcePoint &end) {
    Json physical{{"artifactLocation", artifact(at.file)}};
    if (at.line != 0) {
      bool hasEnd = end.line > at.line ||
                    (end.line == at.line && end.column >= at.column);
      // Finding::end is inclusive: the exclusive end follows that character.
      unsigned endColumn = 0;
      if (hasEnd && end.column != 0)
        endColumn = sources_.codePointColumn(end.file.empty() ? at.file : end.file,
                                             end.line, end.column) + 1;
      Json r = region(at.file, at.line, at.column, hasEnd ? end.line : 0, 0);
      if (endColumn != 0)
        r["endColumn"] = endColumn;
      physical["region"] = std::move(r);
    }
    return Json{{"physicalLocation", std::move(physical)}};
  }

  Json replacement(const TextEdit &e) {
    SourcePoint begin = e.begin, end = e.end;
    if (begin.line == 0)
      if (auto lc = sources_.lineAndColumn(e.file, e.offset))
        begin = SourcePoint{e.file, lc->first, lc->second};
    if (end.line == 0)
      if (auto lc = sources_.lineAndColumn(e.file, e.offset + e.length))
        end = SourcePoint{e.file, lc->first, lc->second};
    return Json{{"deletedRegion", region(e.file, begin.line, begin.column,
                                         end.line, end.column)},
                {"insertedContent", text(e.replacement)}};
  }

  Json fix(const FixIt &f) {
    std::map<std::string, Json> byFile; // one artifactChange per file
    for (const TextEdit &e : f.edits)
      byFile[e.file].push_back(replacement(e));
    Json changes = Json::array();
    for (auto &[file, replacements] : byFile)
      changes.push_back(Json{{"artifactLocation", artifact(file)},
                             {"replacements", std::move(replacements)}});
    std::string description = f.description;
    if (!f.applicable)
      description += " (suggestion; --fix does not apply it)";
    return Json{{"description", text(description)},
                {"artifactChanges", std::move(changes)}};
  }

  Json result(const Finding &f, std::size_t ruleIndex) {
    std::string message = f.message;
    if (f.dynamic)
      message += " [" + dynamicSummary(*f.dynamic) + "]";
    Json loc = location(f.location, f.end);
    if (!f.function.empty())
      loc["logicalLocations"] = Json::array(
          {Json{{"fullyQualifiedName", f.function}, {"kind", "function"}}});
    Json r{{"ruleId", f.checkId},
           {"ruleIndex", ruleIndex},
           {"level", sarifLevel(f.severity)},
           {"message", text(message)},
           {"locations", Json::array({std::move(loc)})}};
    if (!f.related.empty()) {
      Json related = Json::array();
      for (std::size_t i = 0; i < f.related.size() && i < kMaxRelatedLocations;
           ++i) {
        Json entry = location(f.related[i].location, SourcePoint{});
        entry["id"] = i + 1;
        entry["message"] = text(f.related[i].message);
        related.push_back(std::move(entry));
      }
      r["relatedLocations"] = std::move(related);
    }
    bool hasEdits = false;
    for (const FixIt &fx : f.fixes)
      hasEdits |= !fx.edits.empty();
    if (hasEdits) {
      Json fixes = Json::array();
      for (const FixIt &fx : f.fixes)
        if (!fx.edits.empty()) // an empty artifactChanges is invalid SARIF
          fixes.push_back(fix(fx));
      r["fixes"] = std::move(fixes);
    }
    r["partialFingerprints"] = Json{{"streamlint/v1", f.fingerprint}};
    if (options_.baselineCompared)
      r["baselineState"] = "new";
    if (f.dynamic) {
      const DynamicEvidence &d = *f.dynamic;
      r["properties"] = Json{{"streamlint/dynamicStatus", dynamicStatusName(d.status)},
                             {"streamlint/calls", d.calls},
                             {"streamlint/misuses", d.misuses},
                             {"streamlint/hostTimeUs", d.hostTimeUs},
                             {"streamlint/bytes", d.bytes},
                             {"streamlint/detail", d.detail}};
    }
    return r;
  }

  Json notification(const TranslationUnitProblem &p) {
    std::string message = incompleteAnalysisMessage(p, p.errors.size());
    message[0] = static_cast<char>(std::toupper(message[0]));
    message += ".";
    for (const std::string &error : p.errors)
      message += "\n" + error;
    Json notification{{"level", "error"},
                      {"message", text(message)},
                      {"locations", Json::array({location({p.file, 0, 0}, {})})},
                      {"properties",
                       Json{{"streamlint/partial", p.analyzedPartially}}}};
    if (!p.fatalError.empty())
      notification["properties"]["streamlint/fatalError"] = p.fatalError;
    return notification;
  }

private:
  const OutputOptions &options_;
  SourceTextCache &sources_;
};

} // namespace

void writeSarif(const AnalysisResult &result, const OutputOptions &options,
                SourceTextCache &sources, llvm::raw_ostream &out) {
  SarifBuilder builder(options, sources);

  std::vector<RuleInfo> rules = options.rules;
  std::map<std::string, std::size_t> ruleIndex;
  for (std::size_t i = 0; i < rules.size(); ++i)
    ruleIndex.emplace(rules[i].id, i);
  std::vector<const Finding *> ordered = reportOrder(result.findings);
  for (const Finding *f : ordered)
    if (ruleIndex.emplace(f->checkId, rules.size()).second)
      rules.push_back(describeUnknownRule(f->checkId, options.informationUri));

  Json results = Json::array();
  for (std::size_t i = 0; i < ordered.size() && i < kMaxResults; ++i)
    results.push_back(builder.result(*ordered[i], ruleIndex[ordered[i]->checkId]));

  Json notifications = Json::array();
  for (const TranslationUnitProblem &p : result.problems)
    notifications.push_back(builder.notification(p));
  if (ordered.size() > kMaxResults)
    notifications.push_back(Json{
        {"level", "warning"},
        {"message",
         text(std::to_string(ordered.size() - kMaxResults) +
              " findings left out: GitHub code scanning accepts at most " +
              std::to_string(kMaxResults) +
              " results a run. Use --format=json for the full list.")}});

  Json rulesJson = Json::array();
  for (const RuleInfo &r : rules)
    rulesJson.push_back(rule(r, options.informationUri));
  Json driver{{"name", "streamlint"},
              {"semanticVersion",
               options.toolVersion.empty() ? "0.0.0" : options.toolVersion},
              {"informationUri", options.informationUri},
              {"rules", std::move(rulesJson)}};
  Json invocation{{"executionSuccessful", result.problems.empty()}};
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = std::move(notifications);

  Json run{{"tool", Json{{"driver", std::move(driver)}}}};
  if (!options.baseDirectory.empty()) {
    std::string base = options.baseDirectory;
    if (base.back() != '/')
      base += '/';
    run["originalUriBaseIds"] = Json{{kSrcRoot, Json{{"uri", fileUri(base)}}}};
  }
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = std::move(results);
  run["invocations"] = Json::array({std::move(invocation)});

  Json log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
           {"version", "2.1.0"},
           {"runs", Json::array({std::move(run)})}};
  out << dumpJson(log) << "\n";
}

} // namespace streamlint
