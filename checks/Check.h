#pragma once
// The contract every check implements: clang-tidy's, narrowed to what
// streamlint needs. One instance per translation unit.

#include "analyzer/Finding.h"
#include "analyzer/WholeProgramPart.h"
#include "analyzer/config/CheckOptions.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <cassert>
#include <map>
#include <optional>
#include <string>
#include <vector>

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

/// Sites of another check that a check reports instead of it, with its
/// own words and fix: `from`'s sites of kind `sites` (the name `from`
/// asks about, Check::sitesClaimed). The registry hands the sites back to
/// `from` wherever the claiming check is disabled.
struct SiteClaim {
  std::string from;
  std::string sites;
};

/// A check: declares what it needs, turns what it gets into findings.
class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  /// `declared`: the check's options() (the one source of their defaults).
  Check(llvm::StringRef id, TranslationUnitContext &context,
        std::vector<OptionSpec> declared = {})
      : id_(id.str()), context_(context), declared_(std::move(declared)) {}

  const std::string &id() const { return id_; }

  /// CheckNeed bits; the driver provides exactly these.
  virtual unsigned needs() const { return NeedsAstMatches; }

  /// NeedsAstMatches: adds this check's matchers, once per TU.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &) {}
  /// NeedsAstMatches: handles one match.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &) {}

  /// NeedsCallGraph: called once per TU after matching, with the TU's calls.
  virtual void checkCallGraph(reach::TranslationUnitReach &) {}

  /// A check with whole-program facts of its own declares its part beside
  /// its options (`static std::optional<WholeProgramPart> part()`, keyed by
  /// the check's id; analyzer/WholeProgramPart.h) and hands over this TU's
  /// facts here, once, after checkCallGraph(); nullptr: none.
  static std::optional<WholeProgramPart> part() { return std::nullopt; }
  virtual PartFactsPtr takePartFacts() { return nullptr; }

  /// The sites of other checks this check reports instead of them.
  static std::vector<SiteClaim> claims() { return {}; }

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

  /// Whether an enabled check claims this check's sites of kind `sites`
  /// (SiteClaim): then that check reports them.
  bool sitesClaimed(llvm::StringRef sites) const { return context_.sitesClaimed(id_, sites); }

  /// A declared option's value: configured, else its declared default.
  std::string option(llvm::StringRef name) const {
    return context_.options().get(id_, name, declaredDefault(name));
  }
  bool boolOption(llvm::StringRef name) const {
    return context_.options().getBool(id_, name, declaredDefault(name) == "true");
  }

private:
  std::string declaredDefault(llvm::StringRef name) const {
    for (const OptionSpec &spec : declared_)
      if (spec.name == name)
        return spec.defaultValue;
    assert(false && "option not declared in the check's options()");
    return "";
  }

  std::string id_;
  TranslationUnitContext &context_;
  std::vector<OptionSpec> declared_;
};

} // namespace streamlint
