#pragma once
// alloc-in-loop: cudaMalloc/cudaFree and friends in a loop that allocates and
// frees every iteration, directly or through calls in any TU.

#include "checks/AllocInLoopFix.h"
#include "checks/Check.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
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
  /// What each finding of one loop carries: the buffers whose fix applies
  /// in every copy of the loop this TU analyzes (each instantiation of a
  /// template) move in one fix, the same on each of their findings; the
  /// others keep their own fix as a suggestion, or their note. The same for
  /// every copy, since the findings of a template's copies are one finding.
  struct LoopPlan {
    std::map<unsigned, LoopAllocationFix> byAllocation; // raw location -> fix
  };
  const LoopPlan &loopPlan(const clang::Stmt *loop) const;
  /// `loop` in each instantiation of its function (itself outside templates;
  /// the pattern's only when nothing instantiates it).
  std::vector<const clang::Stmt *> loopCopies(const clang::Stmt *loop,
                                              bool &uninstantiated) const;
  std::optional<FixIt> asyncFix(const reach::CallSite &alloc,
                                const reach::CallSite &free) const;

  const std::string extraAllocFunctions_;
  const std::string extraFreeFunctions_;
  const llvm::StringSet<> extraAlloc_, extraFree_;
  reach::TranslationUnitReach *reach_ = nullptr;
  mutable std::map<std::pair<unsigned, unsigned>, LoopPlan> loopPlans_;
};

} // namespace streamlint
