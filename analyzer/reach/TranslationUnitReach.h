#pragma once
// The reach facts of one translation unit: every call in user host code with
// its enclosing function and loops, the TU's call graph and callback
// registrations, and the check sites deferred to the whole-program pass.
// Built once per TU by one AST walk (buildCallGraph) before checks run, so
// checks that need loop context or CUDA call sites do not walk the AST again.

#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/reach/ReachSummary.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace streamlint::reach {

/// One call expression in user host code.
struct CallSite {
  const clang::Expr *expr = nullptr;        // CallExpr, or RecoveryExpr
  const clang::CallExpr *call = nullptr;    // null for a RecoveryExpr
  std::string name;                         // the callee as spelled
  const clang::FunctionDecl *caller = nullptr; // function or lambda operator
  std::string callerUsr;
  std::vector<const clang::Stmt *> loops;   // innermost first, same function
  bool cudaApi = false;                     // CUDA API call or kernel launch
  bool kernelLaunch = false;
  bool userCall = false;                    // a call to a non-system function
  bool opaque = false; // into a system header, or virtual: no edge, no facts
  unsigned kinds = NoApi;                   // ApiKind bits of this call
  // False in error handling or lazy initialization (analysis/ColdPath): the
  // call runs once, whatever loop calls its function, and its allocations,
  // frees and synchronizations are not in its function's summary.
  bool steadyState = true;
};

/// The reach facts of one TU; see the file comment.
class TranslationUnitReach {
public:
  explicit TranslationUnitReach(TranslationUnitContext &context);
  ~TranslationUnitReach();
  TranslationUnitReach(const TranslationUnitReach &) = delete;
  TranslationUnitReach &operator=(const TranslationUnitReach &) = delete;

  /// Walks the AST once (see CallGraphBuilder.cpp).
  void build();

  TranslationUnitContext &context() const { return context_; }
  const std::vector<CallSite> &calls() const { return calls_; }
  /// The loop's facts (location, kind, direct API kinds).
  const LoopFacts &loop(const clang::Stmt *loop) const;
  std::vector<SourcePoint> loopPoints(const CallSite &site) const;
  /// Calls whose enclosing loops include `loop`.
  std::vector<const CallSite *> callsInLoop(const clang::Stmt *loop) const;

  /// The one stream variable all CUDA work in `loop` goes to, declared before
  /// the loop; nullptr if some call uses another or the default stream, takes
  /// no stream, or calls user code whose work we cannot see. `ignored` (the
  /// calls being fixed) do not count.
  const clang::ValueDecl *
  uniqueStream(const clang::Stmt *loop,
               llvm::ArrayRef<const clang::Expr *> ignored) const;

  /// A site whose verdict is whether a loop or a host callback reaches it.
  /// (Facts of a check's own go into its whole-program part instead:
  /// Check::takePartFacts.)
  void defer(PendingSite site) { summary_.sites.push_back(std::move(site)); }
  /// The site's finding, from TranslationUnitContext::makeFinding, not
  /// recorded there (it is resolved later); nullopt in system headers.
  std::optional<Finding> pendingFinding(llvm::StringRef checkId,
                                        const CallSite &site,
                                        std::string message) const;

  TranslationUnitSummary takeSummary();

private:
  friend class CallGraphBuilder;
  TranslationUnitContext &context_;
  std::vector<CallSite> calls_;
  llvm::DenseMap<const clang::Stmt *, size_t> loopIndex_; // into summary_.loops
  TranslationUnitSummary summary_;
};

/// The USR of a function, normalized to its template pattern; "" if none.
std::string functionUsr(const clang::FunctionDecl &function);
/// A readable name: qualified, or "lambda at file:line".
std::string functionName(const clang::FunctionDecl &function,
                         const TranslationUnitContext &context);

} // namespace streamlint::reach
