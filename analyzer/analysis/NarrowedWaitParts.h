#pragma once
// The pieces NarrowedWaitFix.cpp and NamedStreamsWaitFix.cpp share: the
// statement that holds a call and its text, and the checks that a name
// means the same at the wait as where the work was issued. Internal to
// analyzer/analysis.

#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace streamlint::narrowing {

/// The statement of a block that holds a call, as file text, with the
/// call's place in it.
struct HeldStatement {
  const clang::Stmt *statement = nullptr;
  const clang::CompoundStmt *block = nullptr;
  clang::CharSourceRange range; ///< the statement's text, without a ';' after it
  std::string text;
  size_t callBegin = 0, callEnd = 0; ///< the call's text within `text`
  /// `err = call;` (only with allowAssignment): the variable assigned.
  const clang::VarDecl *assignedTo = nullptr;
};

/// The statement that is the call itself, `(void)call`, an error-check
/// macro around it (also one declaring a variable for the result) or, with
/// `allowAssignment`, `variable = call` with a cudaError_t variable; in a
/// block written in the file. Nullopt otherwise.
std::optional<HeldStatement> heldStatement(const clang::CallExpr &call,
                                           TranslationUnitContext &context,
                                           bool allowAssignment = false);
/// The statement's text with its call replaced by `call`.
std::string withCall(const HeldStatement &held, llvm::StringRef call);
/// Whether the statement (a macro's expansion) declares any of `names`.
bool declaresAny(const clang::Stmt *statement, llvm::ArrayRef<std::string> names);
/// The references to `variable` in `stmt`.
void referencesTo(const clang::Stmt *stmt, const clang::Decl *variable,
                  std::vector<const clang::DeclRefExpr *> &found);
/// Whether a lambda in `stmt` captures `variable` by reference.
bool capturedByReference(const clang::Stmt *stmt, const clang::Decl *variable);
/// Whether the reference is read (an lvalue-to-rvalue conversion).
bool isRead(const clang::Stmt &ref, clang::ASTContext &ast);
/// A local or parameter only read from `from` on (never written after it,
/// address never taken, no reference).
bool stableFrom(const clang::VarDecl &variable, const clang::FunctionDecl &function,
                clang::SourceLocation from, clang::ASTContext &ast);
/// `for (int i = A; i < B; ++i)`: its counting variable, when the loop is so.
const clang::VarDecl *countingVariable(const clang::ForStmt &loop);
/// `a[i]` as a call's stream: the array and the index variable.
std::pair<const clang::VarDecl *, const clang::VarDecl *> subscriptStream(const clang::CallExpr &call);
/// From `from` to `to` the array (a local or parameter) is only read
/// element by element, and no cudaStreamDestroy is called.
bool arrayUntouched(const clang::VarDecl &array, const clang::FunctionDecl &function,
                    clang::SourceLocation from, clang::SourceLocation to, clang::ASTContext &ast);
/// Whether a cudaStreamDestroy call lies in [from, to).
bool destroysBetween(const clang::FunctionDecl &function, clang::SourceLocation from,
                     clang::SourceLocation to, clang::ASTContext &ast);
/// "12": the line of `stmt`.
std::string lineOf(const clang::Stmt &stmt, TranslationUnitContext &context);

} // namespace streamlint::narrowing
