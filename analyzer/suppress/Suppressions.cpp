#include "analyzer/suppress/Suppressions.h"

#include "analyzer/support/SourceTextCache.h"
#include "analyzer/suppress/Nolint.h"

#include <algorithm>
#include <map>

namespace streamlint {
namespace {

using Kind = NolintDirective::Kind;

/// A directive and the lines it covers, inclusive.
struct Coverage {
  NolintDirective directive;
  unsigned first = 0;
  unsigned last = 0;
};

/// Every suppression in one file, plus the comments that matched nothing.
struct FileSuppressions {
  std::vector<Coverage> coverage;
  std::vector<NolintDirective> unmatched; // NOLINTBEGIN/END without a partner

  bool suppresses(unsigned line, const std::string &checkId) const {
    return std::any_of(coverage.begin(), coverage.end(), [&](const Coverage &c) {
      return c.first <= line && line <= c.last && c.directive.covers(checkId);
    });
  }
};

FileSuppressions scanFile(const std::string &path, SourceTextCache &sources) {
  FileSuppressions result;
  std::vector<NolintDirective> openBlocks;
  unsigned lines = sources.lineCount(path);
  for (unsigned n = 1; n <= lines; ++n) {
    std::optional<llvm::StringRef> text = sources.line(path, n);
    if (!text || !text->contains("NOLINT"))
      continue;
    for (NolintDirective &d : findNolintDirectives(*text, n)) {
      switch (d.kind) {
      case Kind::SameLine:
        result.coverage.push_back({d, n, n});
        break;
      case Kind::NextLine:
        result.coverage.push_back({d, n + 1, n + 1});
        break;
      case Kind::Begin:
        openBlocks.push_back(d);
        break;
      case Kind::End: {
        // An END closes the latest open BEGIN with the same check list, as
        // in clang-tidy; `NOLINTBEGIN(a)` ... `NOLINTEND(b)` do not pair.
        auto open = std::find_if(openBlocks.rbegin(), openBlocks.rend(),
                                 [&](const NolintDirective &b) {
                                   return b.checks == d.checks;
                                 });
        if (open == openBlocks.rend()) {
          result.unmatched.push_back(d);
          break;
        }
        result.coverage.push_back({*open, open->line, n});
        openBlocks.erase(std::next(open).base());
        break;
      }
      }
    }
  }
  // An unmatched NOLINTBEGIN silences nothing: a forgotten END must not hide
  // the rest of the file.
  result.unmatched.insert(result.unmatched.end(), openBlocks.begin(),
                          openBlocks.end());
  return result;
}

Finding unmatchedFinding(const std::string &path, const NolintDirective &d,
                         SourceTextCache &sources) {
  bool isBegin = d.kind == Kind::Begin;
  Finding f;
  f.checkId = kNolintCheckId;
  f.severity = Severity::Warning;
  f.location = SourcePoint{path, d.line, d.column};
  f.end = SourcePoint{path, d.line,
                      d.column + (isBegin ? 10u : 8u)}; // the keyword
  f.message = isBegin ? "unmatched 'NOLINTBEGIN' comment without a subsequent "
                        "'NOLINTEND' comment; it suppresses nothing"
                      : "unmatched 'NOLINTEND' comment without a previous "
                        "'NOLINTBEGIN' comment";
  if (std::optional<llvm::StringRef> line = sources.line(path, d.line))
    f.snippet = line->trim().str();
  return f;
}

} // namespace

RuleInfo nolintRuleInfo() {
  RuleInfo r;
  r.id = kNolintCheckId;
  r.shortDescription = "NOLINTBEGIN or NOLINTEND comment without its partner.";
  r.fullDescription =
      "A NOLINTBEGIN needs a later NOLINTEND with the same check list (and the "
      "reverse). An unmatched NOLINTBEGIN suppresses nothing, so findings it "
      "was meant to hide are reported.";
  r.helpText = "Add the missing NOLINTEND(...) or NOLINTBEGIN(...) with the "
               "same check list, or remove the stray comment.";
  r.helpUri = "https://github.com/streamlint/streamlint/blob/main/docs/"
              "suppressions.md";
  r.defaultSeverity = Severity::Warning;
  return r;
}

void removeSuppressedFindings(std::vector<Finding> &findings,
                              SourceTextCache &sources) {
  std::map<std::string, FileSuppressions> files;
  auto fileFor = [&](const std::string &path) -> const FileSuppressions & {
    auto it = files.find(path);
    if (it == files.end())
      it = files.emplace(path, scanFile(path, sources)).first;
    return it->second;
  };

  std::vector<Finding> kept;
  kept.reserve(findings.size());
  for (Finding &f : findings) {
    if (f.location.file.empty() || f.location.line == 0 ||
        !fileFor(f.location.file).suppresses(f.location.line, f.checkId))
      kept.push_back(std::move(f));
  }
  for (const auto &[path, file] : files)
    for (const NolintDirective &d : file.unmatched)
      kept.push_back(unmatchedFinding(path, d, sources));
  std::stable_sort(kept.begin(), kept.end(), findingLess);
  findings = std::move(kept);
}

} // namespace streamlint
