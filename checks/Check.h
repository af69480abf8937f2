#pragma once
// The contract every check implements: clang-tidy's, narrowed to what
// streamlint needs. One instance per translation unit.

#include "analyzer/Finding.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <map>
#include <string>

namespace streamlint {

namespace reach {
class TranslationUnitReach;
}

/// What a check needs the driver to provide for each translation unit.
enum CheckNeed : unsigned {
  /// AST matches: registerMatchers() then check() per match.
  NeedsAstMatches = 1u << 0,
  /// The TU's call sites, loops and call graph (one walk shared by every
  /// check that asks), then checkCallGraph(); deferred sites go to the
  /// whole-program pass.
  NeedsCallGraph = 1u << 1,
};

/// A check: declares what it needs, turns what it gets into findings.
class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef id, TranslationUnitContext &context)
      : id_(id.str()), context_(context) {}

  const std::string &id() const { return id_; }

  /// CheckNeed bits; the driver provides exactly these.
  virtual unsigned needs() const { return NeedsAstMatches; }

  /// NeedsAstMatches: adds this check's matchers, once per TU.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &) {}
  /// NeedsAstMatches: handles one match.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &) {}

  /// NeedsCallGraph: called once per TU after matching, with the TU's calls.
  virtual void checkCallGraph(reach::TranslationUnitReach &) {}

  void run(const clang::ast_matchers::MatchFinder::MatchResult &result) final {
    check(result);
  }
  llvm::StringRef getID() const override { return id_; }

protected:
  TranslationUnitContext &context() const { return context_; }

  /// Records a finding of this check; see TranslationUnitContext::report.
  Finding &report(Severity severity, clang::SourceRange range,
                  std::string message, const clang::Stmt *stmt = nullptr) {
    return context_.report(id_, severity, range, std::move(message), stmt);
  }

  std::string option(llvm::StringRef name, llvm::StringRef fallback) const {
    return context_.options().get(id_, name, fallback);
  }
  bool boolOption(llvm::StringRef name, bool fallback) const {
    return context_.options().getBool(id_, name, fallback);
  }

private:
  std::string id_;
  TranslationUnitContext &context_;
};

} // namespace streamlint
