#pragma once
// The one way checks and their fixes write source edits: a fix built edit by
// edit (TranslationUnitContext::edit for each: expansion-safe, CRLF-aware),
// which fails as a whole when one of them cannot be made, and the
// indentation of the line an inserted statement goes on.

#include "analyzer/Finding.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace streamlint {

/// The blanks (spaces and tabs) that begin the line holding `location` (its
/// expansion location), whatever follows them.
std::string lineIndentation(clang::SourceLocation location, const clang::SourceManager &sm);

/// Whether only blanks precede `location` on its line (the statement there
/// begins the line).
bool beginsLine(clang::SourceLocation location, const clang::SourceManager &sm);

/// The start of the line holding `location` (its expansion location).
clang::SourceLocation lineBegin(clang::SourceLocation location, const clang::SourceManager &sm);

/// Adds edits to one fix; each add says whether its edit could be made (not
/// inside a macro expansion, in a file). A caller that gets false drops the
/// fix: a fix applies all of its edits or none.
class FixEdits {
public:
  FixEdits(TranslationUnitContext &context, FixIt &fix) : context_(context), fix_(fix) {}

  /// Replaces `range` by `replacement`.
  bool add(clang::CharSourceRange range, llvm::StringRef replacement);
  /// Replaces the characters from `begin` up to `end` (equal: an insertion).
  bool add(clang::SourceLocation begin, clang::SourceLocation end, llvm::StringRef replacement) {
    return add(clang::CharSourceRange::getCharRange(begin, end), replacement);
  }
  /// Replaces the tokens of `stmt`.
  bool replaceTokens(const clang::Stmt *stmt, llvm::StringRef replacement) {
    return add(clang::CharSourceRange::getTokenRange(stmt->getSourceRange()), replacement);
  }

  TranslationUnitContext &context() const { return context_; }

private:
  TranslationUnitContext &context_;
  FixIt &fix_;
};

} // namespace streamlint
