#include "checks/CheckRegistry.h"

#include "analyzer/support/Glob.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace streamlint {

void CheckRegistry::add(CheckDescriptor descriptor) {
  if (descriptor.part) {
    descriptor.part->id = descriptor.rule.id; // parts are keyed by their check
    registerPart(*descriptor.part);
  }
  auto position = std::lower_bound(
      checks_.begin(), checks_.end(), descriptor,
      [](const CheckDescriptor &a, const CheckDescriptor &b) {
        return a.rule.id < b.rule.id;
      });
  checks_.insert(position, std::move(descriptor));
}

void CheckRegistry::addSharedPart(WholeProgramPart part) { registerPart(std::move(part)); }

std::vector<RuleInfo> CheckRegistry::rules() const {
  std::vector<RuleInfo> rules;
  for (const CheckDescriptor &check : checks_)
    rules.push_back(check.rule);
  return rules;
}

OptionCatalog CheckRegistry::optionCatalog() const {
  OptionCatalog catalog;
  for (const CheckDescriptor &check : checks_) {
    catalog.checks.push_back(check.rule.id);
    for (const OptionSpec &option : check.options)
      catalog.options[check.rule.id + "." + option.name] = option;
  }
  return catalog;
}

CheckSelection::CheckSelection(std::string globs) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  llvm::StringRef(globs).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    bool positive = !part.consume_front("-");
    globs_.emplace_back(positive, part.trim().str());
  }
}

bool CheckSelection::enabled(llvm::StringRef checkId) const {
  bool result = false;
  for (const auto &[positive, pattern] : globs_)
    if (globMatches(pattern, checkId))
      result = positive;
  return result;
}

std::vector<std::string>
CheckSelection::unmatched(const CheckRegistry &registry) const {
  std::vector<std::string> result;
  for (const auto &[positive, pattern] : globs_) {
    bool any = std::any_of(registry.checks().begin(), registry.checks().end(),
                           [&](const CheckDescriptor &check) {
                             return globMatches(pattern, check.rule.id);
                           });
    if (!any)
      result.push_back(pattern);
  }
  return result;
}

std::set<std::pair<std::string, std::string>> claimedSites(const CheckRegistry &registry,
                                                            const CheckSelection &selection) {
  std::set<std::pair<std::string, std::string>> claimed;
  for (const CheckDescriptor &check : registry.checks())
    if (selection.enabled(check.rule.id))
      for (const SiteClaim &claim : check.claims)
        claimed.insert({claim.from, claim.sites});
  return claimed;
}

} // namespace streamlint
