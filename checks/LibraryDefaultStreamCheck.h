#pragma once
// library-default-stream: CUDA library work that falls back to the default
// stream: handles never bound to a stream, per-call stream arguments left
// out or 0 (cuBLASLt, NCCL, CUB), Thrust algorithms without a stream policy
// next to work on a created stream, and PyTorch extensions that launch
// without the stream PyTorch gives them.

#include "analyzer/analysis/PointerProvenance.h"
#include "checks/LibraryHandles.h"
#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/analysis/SourceFacts.h"
#include "checks/Check.h"

#include <set>

namespace streamlint {

/// A library function's name as the user wrote it: without the `_v2` its
/// header's macro adds (cublasSgemm -> cublasSgemm_v2) or `_ptsz`.
std::string libraryCallName(const clang::FunctionDecl &callee);

/// Flags library work on the default stream; fixes bind or pass the one
/// stream in scope (a moved call is applied when the ordering analysis
/// keeps every happens-before edge; handle binds and Thrust stay suggestions).
class LibraryDefaultStreamCheck : public Check {
public:
  explicit LibraryDefaultStreamCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  static std::vector<OptionSpec> options() { return {}; }
  /// A PyTorch extension's launches and stream-taking calls are
  /// default-stream's sites, reported here with PyTorch's current stream
  /// as the fix; default-stream reports them where this check is disabled.
  static std::vector<SiteClaim> claims();
  /// Handles are judged by the whole program: their facts (checkCallGraph)
  /// are the check's part's (LibraryDefaultStreamPart.h), which decides.
  unsigned needs() const override { return NeedsAstMatches | NeedsCallGraph; }
  static std::optional<WholeProgramPart> part() { return libraryDefaultStreamPart(); }
  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;
  void checkCallGraph(reach::TranslationUnitReach &reach) override;
  PartFactsPtr takePartFacts() override;

private:
  // Per-call stream arguments (LibraryStreamCalls.cpp).
  void relateGroupEnd(Finding &finding, const clang::CallExpr &call, api::Library library);
  void checkStreamArgument(const clang::CallExpr &call, api::Library library,
                           const std::string &what, unsigned streamIndex);
  /// A static member of one of CUB's (hipCUB's) device-wide algorithm
  /// classes, by the library table.
  static bool isCubAlgorithm(const clang::FunctionDecl &callee);
  /// A Thrust algorithm called by its qualified name (thrust::sort).
  static bool isThrustAlgorithm(const clang::FunctionDecl &callee);
  /// Whether check() may do anything with `call` (anything but a launch):
  /// false for most calls, which then need no enclosing function.
  bool mayActOn(const clang::CallExpr &call, const clang::FunctionDecl &callee) const;
  void checkCubCall(const clang::CallExpr &call, const clang::FunctionDecl &callee);
  /// Whether `storage` is null wherever `call` runs: a null constant, a cast
  /// of one, or a variable whose every reaching value is null.
  bool nullOnEveryPath(const clang::Expr &storage, const clang::CallExpr &call);
  void checkThrustCall(const clang::CallExpr &call);
  void checkPyTorchSite(const clang::CallExpr &call);
  bool defaultIsLegacy(api::Library library, StreamKind kind) const;

  // Handles (this file).
  /// The finding an unbound handle gets, prepared here, reported (with
  /// its uses) by the whole-program pass.
  std::optional<Finding> unboundHandleFinding(const HandleCreation &created,
                                              const reach::TranslationUnitReach &reach) const;
  std::optional<TextEdit> bindAfterCreation(const HandleCreation &created,
                                            const std::string &stream) const;

  // Fixes.
  /// The stream a fix passes at `site`: the current PyTorch stream in an
  /// extension, else the one stream the function uses; empty if none.
  std::string streamToPass(const clang::Stmt &site) const;
  std::optional<TextEdit> replaceOrInsertArgument(const clang::CallExpr &call,
                                                  unsigned index,
                                                  const std::string &text) const;
  void addSuggestion(Finding &finding, std::optional<TextEdit> edit,
                     const std::string &description) const;
  /// A fix that moves `call` itself to the stream in scope: applied by
  /// --fix when the shared ordering analysis says every happens-before edge
  /// is kept (docs/fixes.md), with the waits it needs; else a suggestion.
  void addMoveFix(Finding &finding, const clang::CallExpr &call,
                  std::optional<TextEdit> edit, const std::string &description) const;
  bool firstReport(const clang::Stmt &site);

  const bool perThreadBuild_;
  const bool pyTorchExtension_;
  LibraryHandleTracker handles_;
  std::vector<HandleFacts> handleFacts_; // this TU's, for takePartFacts()
  ReportOnce reported_;
  PointerProvenance provenance_; // whether CUB's temporary storage is null
};

} // namespace streamlint
