#pragma once
// alloc-in-loop: cudaMalloc/cudaFree and friends in a loop that allocates and
// frees every iteration, directly or through calls in any TU.

#include "checks/AllocInLoopFix.h"
#include "checks/Check.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include <optional>

namespace streamlint {

/// Flags allocations and frees that churn per iteration; set-up loops (one
/// buffer per element) and their teardown loops are fine.
class AllocInLoopCheck : public Check {
public:
  explicit AllocInLoopCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;
  static std::vector<OptionSpec> options();

private:
  unsigned kindsOf(const reach::CallSite &site) const;
  void checkCall(const reach::CallSite &site);
  /// The free matching `alloc` in the same iteration, or nullptr and why.
  const reach::CallSite *matchingFree(const reach::CallSite &alloc, std::string &why) const;
  void addFixes(const reach::CallSite &alloc, Finding &finding) const;
  /// The applicable fixes of `loop`'s buffers, in source order.
  std::vector<FixIt> loopFixes(const clang::Stmt *loop) const;
  std::optional<FixIt> asyncFix(const reach::CallSite &alloc,
                                const reach::CallSite &free) const;

  const std::string extraAllocFunctions_;
  const std::string extraFreeFunctions_;
  const llvm::StringSet<> extraAlloc_, extraFree_;
  reach::TranslationUnitReach *reach_ = nullptr;
};

} // namespace streamlint
