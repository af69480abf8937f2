#pragma once
// default-stream: launches and stream-ordered CUDA calls on the legacy
// default stream, which implicitly synchronizes with all blocking streams.

#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/ProgramStream.h"
#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/analysis/SourceFacts.h"
#include "checks/Check.h"

#include <map>
#include <set>

namespace streamlint {
namespace api {
struct ApiInfo;
}

/// Flags kernel launches and runtime calls whose stream is provably the
/// legacy default stream, and calls that take a `cudaStream_t s = 0` default.
class DefaultStreamCheck : public Check {
public:
  explicit DefaultStreamCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
  static std::vector<OptionSpec> options();
  /// Its sites another check may claim (SiteClaim): a PyTorch extension's
  /// launches and stream-taking calls.
  static constexpr const char *PyTorchExtensionSites = "pytorch-extension";

private:
  /// Stream-ordered runtime calls whose stream argument decides which work
  /// they wait for. cudaStreamSynchronize(0) belongs to device-sync.
  static bool takesStreamArgument(const api::ApiInfo &info);
  /// What "default stream" means at one site, and whether to say anything.
  enum class Verdict { Quiet, LegacyWarning, PerThreadNote };
  Verdict verdict(StreamKind kind, const clang::FunctionDecl *callee) const;

  void checkStreamSite(const clang::CallExpr &call, const std::string &what,
                       const StreamArgumentSite &site,
                       const StreamClassification &stream,
                       const clang::FunctionDecl *callee);
  void checkLaunchConfig(const clang::CallExpr &call, const std::string &name);
  void checkDefaultedParameter(const clang::CallExpr &call,
                               const clang::FunctionDecl &callee);
  std::optional<TextEdit> streamEdit(const clang::CallExpr &call,
                                     const StreamArgumentSite &site,
                                     const std::string &stream) const;
  void addFix(Finding &finding, const clang::CallExpr &call,
              const StreamArgumentSite &site, StreamKind kind);
  bool firstReport(const clang::CallExpr &call);
  /// `call` as default-stream's fix would move it to `target` (null: to
  /// cudaStreamPerThread, where no stream is in scope), if it would.
  std::optional<MovedCall> movedCall(const clang::CallExpr &call,
                                     const clang::FunctionDecl &function,
                                     const clang::VarDecl *target);
  /// Whether moving every such call of `function` to `target` (null: the
  /// per-thread default stream, for a function that uses no stream
  /// variable) keeps the legacy stream's ordering
  /// (analyzer/analysis/OrderingSafety.h); cached.
  struct GroupOrdering {
    std::vector<MovedCall> group;
    OrderingVerdict verdict;
    /// When the callers of `function` (in the whole program) decide.
    std::optional<ordering::ConditionalFix> conditional;
    /// Per-thread target in a function that also uses stream variables:
    /// the calls left on the legacy stream, and why.
    std::map<const clang::CallExpr *, std::string> leftOut;
    bool usesStreams = false;
  };
  /// The per-thread group of `function`, whose other work uses streams:
  /// the calls, in source order, whose moves together keep every edge
  /// without an inserted wait (assuming callers that leave nothing pending
  /// and wait after the call; the whole program checks that later).
  void choosePerThreadSubset(GroupOrdering &result, std::vector<MovedCall> candidates);
  const GroupOrdering &orderingFor(const clang::FunctionDecl &function,
                                   const clang::VarDecl *target);
  /// The fix that moves `call` to cudaStreamPerThread with the rest of its
  /// function, when no stream is in scope there.
  void perThreadFix(FixIt &fix, Finding &finding, const clang::CallExpr &call,
                    const clang::FunctionDecl &function);
  /// The group's other moves, carried by `call`'s fix and required of the
  /// run (FixIt::prerequisites): --fix applies the group all or none, also
  /// where NOLINT, a baseline or the report's filters drop one of its
  /// findings (a call left on the legacy stream is not ordered after the
  /// moved work on a non-blocking target).
  void carryGroup(FixIt &fix, const clang::CallExpr &call, const clang::FunctionDecl &function,
                  const clang::VarDecl *target, const GroupOrdering &ordering);

  const bool noteUnderPerThread_;   // PerThreadDefaultStream=note
  const bool perThreadBuild_;       // compile command or macro says PTDS
  /// A PyTorch extension whose launches and stream-taking calls an enabled
  /// check claims (PyTorchExtensionSites).
  const bool pyTorchSitesClaimed_;
  /// (expansion, spelling) of reported calls: instantiations repeat them.
  ReportOnce reported_;
  std::map<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>, GroupOrdering>
      ordering_;
  StreamSuggester suggester_;
};

} // namespace streamlint
