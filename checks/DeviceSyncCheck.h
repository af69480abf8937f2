#pragma once
// device-sync: device-wide or legacy-stream synchronization, worst on hot paths.

#include "checks/Check.h"

namespace streamlint {

/// Flags cudaDeviceSynchronize and friends; a warning inside loops.
class DeviceSyncCheck : public Check {
public:
  explicit DeviceSyncCheck(TranslationUnitContext &context)
      : Check(rule().id, context) {}
  static RuleInfo rule();
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
};

} // namespace streamlint
