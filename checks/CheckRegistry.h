#pragma once
// The table of all checks, filled by one explicit registerAllChecks() call.

#include "analyzer/Finding.h"
#include "checks/Check.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace streamlint {

/// How to make a check and what outputs say about it.
struct CheckDescriptor {
  RuleInfo rule;
  std::vector<OptionSpec> options; ///< declared: name, type, default
  /// Its whole-program part, if it has one (keyed by rule.id).
  std::optional<WholeProgramPart> part;
  /// Sites of other checks it reports instead of them.
  std::vector<SiteClaim> claims;
  std::function<std::unique_ptr<Check>(TranslationUnitContext &)> create;
};

/// All known checks, sorted by id.
class CheckRegistry {
public:
  /// Registers a check class with `static RuleInfo rule()`, `static
  /// std::vector<OptionSpec> options()`, optionally `static part()` and
  /// `static claims()`, and a `(TranslationUnitContext &)` constructor.
  template <typename CheckType> void add() {
    add({CheckType::rule(), CheckType::options(), CheckType::part(), CheckType::claims(),
         [](TranslationUnitContext &context) {
           return std::unique_ptr<Check>(new CheckType(context));
         }});
  }
  /// Also registers its part (registerPart), under the check's id.
  void add(CheckDescriptor descriptor);
  /// A part several checks share (stream ordering, analysis/OrderingPart.h):
  /// produced by the driver for every TU, registered here.
  void addSharedPart(WholeProgramPart part);

  const std::vector<CheckDescriptor> &checks() const { return checks_; }
  std::vector<RuleInfo> rules() const;
  /// Every check id and declared option, for validating configurations.
  OptionCatalog optionCatalog() const;

private:
  std::vector<CheckDescriptor> checks_;
};

/// Registers every streamlint check (checks/AllChecks.cpp).
void registerAllChecks(CheckRegistry &registry);

/// A clang-tidy style selection: "-*,default-stream,device-*".
class CheckSelection {
public:
  explicit CheckSelection(std::string globs = "*");
  bool enabled(llvm::StringRef checkId) const;
  /// Globs that match no registered check (a likely typo).
  std::vector<std::string> unmatched(const CheckRegistry &registry) const;

private:
  std::vector<std::pair<bool, std::string>> globs_; // (positive, pattern)
};

/// The sites claimed away from their checks under `selection`: (check id,
/// site kind) for each claim of an enabled check (TranslationUnitInfo).
std::set<std::pair<std::string, std::string>> claimedSites(const CheckRegistry &registry,
                                                            const CheckSelection &selection);

} // namespace streamlint
