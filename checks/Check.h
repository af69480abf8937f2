#pragma once
// The contract every check implements: clang-tidy's, narrowed to what
// streamlint needs. One instance per translation unit.

#include "analyzer/Finding.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <map>
#include <string>

namespace streamlint {

/// A check: registers AST matchers, turns matches into findings.
class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef id, TranslationUnitContext &context)
      : id_(id.str()), context_(context) {}

  const std::string &id() const { return id_; }

  /// Adds this check's matchers; called once per TU before matching.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &finder) = 0;

  /// Handles one match.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &result) = 0;

  /// Writes the options this check read, with their values (--dump-config).
  virtual void storeOptions(std::map<std::string, std::string> &) const {}

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
