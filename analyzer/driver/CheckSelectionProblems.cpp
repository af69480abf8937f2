#include "analyzer/driver/CheckSelectionProblems.h"
#include "analyzer/support/Glob.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace streamlint {
namespace {

bool matchesSomeCheck(llvm::StringRef glob, const CheckRegistry &registry) {
  return std::any_of(registry.checks().begin(), registry.checks().end(),
                     [&](const CheckDescriptor &check) {
                       return globMatches(glob, check.rule.id);
                     });
}

std::string noChecksEnabled(llvm::StringRef globs, llvm::StringRef from,
                            const CheckRegistry &registry) {
  return "no checks enabled: Checks '" + globs.str() + "'" + from.str() +
         " selects none of the " + std::to_string(registry.checks().size()) +
         " checks (see --list-checks; --allow-no-checks runs without checks)";
}

} // namespace

bool enablesSomeCheck(llvm::StringRef globs, const CheckRegistry &registry) {
  CheckSelection selection(globs.str());
  return std::any_of(registry.checks().begin(), registry.checks().end(),
                     [&](const CheckDescriptor &check) {
                       return selection.enabled(check.rule.id);
                     });
}

std::string unknownCheckGlobProblem(llvm::StringRef option, llvm::StringRef globs,
                                    const CheckRegistry &registry) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  globs.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    bool negative = part.consume_front("-");
    part = part.trim();
    if (!part.empty() && !matchesSomeCheck(part, registry))
      return option.str() + ": '" + std::string(negative ? "-" : "") + part.str() +
             "' matches no check (see --list-checks)";
  }
  return "";
}

std::string commandLineChecksProblem(llvm::StringRef globs, const CheckRegistry &registry,
                                     bool allowNoChecks) {
  if (std::string problem = unknownCheckGlobProblem("--checks", globs, registry);
      !problem.empty())
    return problem;
  bool any = !llvm::StringRef(globs).trim(" \t,-").empty();
  if (!any && !allowNoChecks)
    return "--checks is empty: no checks enabled (an unset variable? "
           "--allow-no-checks runs without checks)";
  return "";
}

std::string planChecksProblem(const AnalysisPlan &plan, const CheckRegistry &registry) {
  const EffectiveConfig *first = nullptr;
  auto consider = [&](const EffectiveConfig &config) {
    if (!first)
      first = &config;
    return enablesSomeCheck(config.checks, registry);
  };
  for (const PlannedUnit &unit : plan.units)
    if (unit.reported && consider(unit.config))
      return "";
  for (const NamedHeader &header : plan.namedHeaders)
    if (consider(header.config))
      return "";
  if (!first)
    return "";
  std::string from;
  for (const std::string &source : first->sources)
    from += (from.empty() ? " (from " : ", ") + source;
  if (!from.empty())
    from += ")";
  return noChecksEnabled(first->checks, from, registry);
}

} // namespace streamlint
