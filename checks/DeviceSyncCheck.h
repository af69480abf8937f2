#pragma once
// device-sync: device-wide or legacy-stream synchronization, worst on hot paths.

#include "checks/Check.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include <optional>

namespace streamlint {

/// Flags cudaDeviceSynchronize, legacy-stream syncs and synchronous copies:
/// a warning inside a loop or in a function reached from one (any TU), else
/// a note.
class DeviceSyncCheck : public Check {
public:
  explicit DeviceSyncCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
  void storeOptions(std::map<std::string, std::string> &options) const override;

private:
  void checkCall(const reach::CallSite &site);
  std::optional<FixIt> streamSyncFix(const reach::CallSite &site) const;

  const std::string extraSyncFunctions_;
  reach::TranslationUnitReach *reach_;
};

} // namespace streamlint
