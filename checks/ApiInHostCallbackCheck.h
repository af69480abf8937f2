#pragma once
// api-in-host-callback: CUDA API calls in functions run by
// cudaLaunchHostFunc / cudaStreamAddCallback, directly or through calls.

#include "checks/Check.h"

#include "analyzer/reach/TranslationUnitReach.h"

namespace streamlint {

/// Flags every CUDA runtime, driver or library call (and kernel launch)
/// reached from a registered host callback, in any TU.
class ApiInHostCallbackCheck : public Check {
public:
  explicit ApiInHostCallbackCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  static std::vector<OptionSpec> options() { return {}; }
  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;
};

} // namespace streamlint
