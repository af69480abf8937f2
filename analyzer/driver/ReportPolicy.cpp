#include "analyzer/driver/ReportPolicy.h"
#include "analyzer/support/Glob.h"

#include "llvm/Support/Path.h"

#include <map>
#include <memory>

namespace streamlint {
namespace {

/// Whether `checkId` matches the comma-separated globs (a `-glob` removes).
bool matchesGlobList(llvm::StringRef globs, llvm::StringRef checkId) {
  bool result = false;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  globs.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    bool positive = !part.consume_front("-");
    part = part.trim();
    if (!part.empty() && globMatches(part, checkId))
      result = positive;
  }
  return result;
}

struct SeverityPolicy {
  std::string warningsAsErrors;
  Severity minSeverity = Severity::Note;
};

} // namespace

std::optional<Severity> parseSeverity(llvm::StringRef name) {
  for (Severity severity : {Severity::Note, Severity::Warning, Severity::Error})
    if (name == severityName(severity))
      return severity;
  return std::nullopt;
}

llvm::Error applyReportPolicy(AnalysisResult &result,
                              const std::optional<ConfigOverrides> &overrides,
                              const CheckRegistry &registry, const ChangedLines *changed,
                              SummaryCounts &counts) {
  std::optional<ConfigResolver> resolver;
  if (overrides) {
    OptionCatalog catalog = registry.optionCatalog();
    resolver.emplace(*overrides, catalog.checks, catalog);
  }
  std::map<std::string, SeverityPolicy> byDirectory;
  auto policyFor = [&](const std::string &file) -> llvm::Expected<const SeverityPolicy *> {
    std::string directory(llvm::sys::path::parent_path(file));
    auto found = byDirectory.find(directory);
    if (found != byDirectory.end())
      return &found->second;
    SeverityPolicy policy;
    if (resolver) {
      auto config = resolver->configForDirectory(directory);
      if (!config)
        return config.takeError();
      policy.warningsAsErrors = config->warningsAsErrors;
      policy.minSeverity = parseSeverity(config->minSeverity).value_or(Severity::Note);
    }
    return &byDirectory.emplace(directory, std::move(policy)).first->second;
  };

  std::vector<Finding> kept;
  for (Finding &finding : result.findings) {
    auto policy = policyFor(finding.location.file);
    if (!policy)
      return policy.takeError();
    if (finding.severity == Severity::Warning &&
        matchesGlobList((*policy)->warningsAsErrors, finding.checkId))
      finding.severity = Severity::Error;
    if (finding.severity < (*policy)->minSeverity) {
      ++counts.belowSeverity;
      continue;
    }
    if (changed && !changed->touches(finding)) {
      ++counts.outsideDiff;
      continue;
    }
    kept.push_back(std::move(finding));
  }
  result.findings = std::move(kept);
  return llvm::Error::success();
}

std::function<bool(const std::string &, const std::string &)>
checkSelectionAt(const std::optional<ConfigOverrides> &overrides, const CheckRegistry &registry) {
  if (!overrides)
    return nullptr;
  struct State {
    std::optional<ConfigResolver> resolver;
    std::map<std::string, CheckSelection> byDirectory;
  };
  auto state = std::make_shared<State>();
  OptionCatalog catalog = registry.optionCatalog();
  state->resolver.emplace(*overrides, catalog.checks, catalog);
  return [state](const std::string &check, const std::string &file) {
    std::string directory(llvm::sys::path::parent_path(file));
    auto found = state->byDirectory.find(directory);
    if (found == state->byDirectory.end()) {
      auto config = state->resolver->configForDirectory(directory);
      std::string globs = "*";
      if (config)
        globs = config->checks;
      else
        llvm::consumeError(config.takeError());
      found = state->byDirectory.emplace(directory, CheckSelection(globs)).first;
    }
    return found->second.enabled(check);
  };
}

} // namespace streamlint
