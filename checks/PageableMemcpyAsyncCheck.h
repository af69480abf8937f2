#pragma once
// pageable-memcpy-async: an async copy whose host side is pageable memory is
// staged through a pinned buffer by the runtime and stops overlapping.

#include "analyzer/analysis/PointerProvenance.h"
#include "api/CudaApiTable.h"
#include "checks/Check.h"
#include "checks/PageableMemcpyAsyncPart.h"
#include "checks/PinnedAllocationFix.h"

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
  /// Copies whose host end another TU returns or passes, what this TU's
  /// functions return and what its calls pass, go to the check's
  /// whole-program part (PageableMemcpyAsyncPart.h).
  unsigned needs() const override { return NeedsAstMatches | NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &reach) override;
  static std::vector<OptionSpec> options();
  static std::optional<WholeProgramPart> part() { return pageableMemcpyAsyncPart(); }
  PartFactsPtr takePartFacts() override;

private:
  /// A copy's kind argument and host-side ends (`known` false when a
  /// cudaMemcpy3DAsync's parameters cannot be read).
  struct CopyEnds {
    const clang::Expr *kind, *source, *destination;
    bool known;
  };
  void checkCopy(const clang::CallExpr *copy, const api::ApiInfo &copyApi);
  CopyEnds copyEnds(const clang::CallExpr *copy, const api::ApiInfo &copyApi);
  int copyKind(const api::ApiInfo &copyApi, const clang::Expr *kindExpr);
  void reportPageable(const clang::CallExpr *copy, const Provenance &pageable, bool fromHost,
                      const std::string &apiName, const clang::FunctionDecl *function);
  void handleUndecided(const clang::CallExpr *copy, const Provenance &from,
                       const Provenance &to, const std::string &apiName,
                       const clang::FunctionDecl *function);
  /// The finding's words before and after the host memory's origin.
  static std::pair<std::string, std::string> pageableWords(const std::string &apiName,
                                                           bool fromHost);
  static std::string pageableMessage(const std::string &apiName, bool fromHost,
                                     const std::string &origin);

  // The whole-program half (PageableMemcpyAsyncSummaries.cpp).

  /// A copy whose host end is decided in other TUs: what a function returns
  /// (returnedBy) or what callers pass for a parameter (parameterOf).
  struct ElsewhereCopy {
    const clang::CallExpr *copy;
    const clang::FunctionDecl *returnedBy;
    const clang::ParmVarDecl *parameterOf;
    std::string apiName;
    bool fromHost; // the host end is the source
  };
  /// Records what a pointer-returning function returns, for copies in other
  /// TUs that use its result.
  void summarizeReturn(const clang::FunctionDecl &function);
  /// What every call in this TU passes for pointer parameters of user
  /// functions, and which functions have their address taken.
  std::vector<PassedMemory> summarizeArguments();
  /// Resolved once the whole program is summarized.
  void deferToWholeProgram(reach::TranslationUnitReach &reach, const ElsewhereCopy &copy);
  static std::string unknownMemoryNote(const std::string &apiName);

  const bool strict_;
  PointerProvenance provenance_;
  PinnedAllocationFixer fixer_; // one fix per buffer
  // Collected while matching, handed over in checkCallGraph().
  std::vector<ElsewhereCopy> elsewhere_;
  // This TU's part, filled in checkCallGraph(), taken by takePartFacts().
  std::shared_ptr<PageableMemoryFacts> part_ = std::make_shared<PageableMemoryFacts>();
};

} // namespace streamlint
