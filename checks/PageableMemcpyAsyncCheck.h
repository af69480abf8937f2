#pragma once
// pageable-memcpy-async: an async copy whose host side is pageable memory is
// staged through a pinned buffer by the runtime and stops overlapping.

#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/reach/ReachSummary.h"
#include "checks/Check.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace streamlint {

/// Flags cudaMemcpyAsync and friends whose host pointer comes from malloc,
/// new, std::vector, the stack or a global rather than pinned memory.
class PageableMemcpyAsyncCheck : public Check {
public:
  explicit PageableMemcpyAsyncCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
  /// Copies whose host end another TU returns, and what this TU's functions
  /// return, go to the whole-program pass through the TU's reach.
  unsigned needs() const override { return NeedsAstMatches | NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &reach) override;
  static std::vector<OptionSpec> options();

private:
  /// Rewrites a malloc/free or new[]/delete[] buffer local to one function
  /// into cudaMallocHost/cudaFreeHost; nullopt unless the shape is simple.
  std::optional<FixIt> pinnedAllocationFix(const Provenance &memory,
                                           const clang::FunctionDecl *function);

  // The whole-program half (PageableMemcpyAsyncSummaries.cpp).

  /// A copy whose host end is decided in other TUs: what a function returns
  /// (returnedBy) or what callers pass for a parameter (parameterOf).
  struct ElsewhereCopy {
    const clang::CallExpr *copy;
    const clang::FunctionDecl *returnedBy;
    const clang::ParmVarDecl *parameterOf;
    std::string apiName, message;
  };
  /// Records what a pointer-returning function returns, for copies in other
  /// TUs that use its result.
  void summarizeReturn(const clang::FunctionDecl &function);
  /// What every call in this TU passes for pointer parameters of user
  /// functions, and which functions have their address taken.
  std::vector<reach::PassedMemory> summarizeArguments();
  /// Resolved once the whole program is summarized.
  void deferToWholeProgram(reach::TranslationUnitReach &reach, const ElsewhereCopy &copy);
  static std::string unknownMemoryNote(const std::string &apiName);

  const bool strict_;
  PointerProvenance provenance_;
  // Collected while matching, handed over in checkCallGraph().
  std::vector<reach::ReturnedMemory> returns_;
  std::vector<ElsewhereCopy> elsewhere_;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> fixed_; // one fix per buffer
};

} // namespace streamlint
