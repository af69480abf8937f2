#pragma once
// alloc-in-loop's fix moves a buffer's lifetime out of its loop: what in the
// loop (early exits, escapes, later reads) could notice that.

#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Stmt.h"

#include <string>

namespace streamlint {

/// The buffer, its loop and the statements the fix moves.
struct LoopBuffer {
  const clang::Stmt *loop, *allocStmt, *freeStmt;
  const clang::VarDecl *buffer;
  clang::SourceLocation loopEnd; // file location after the loop
};

/// Why moving the allocation before the loop and the free after it could
/// change what the program computes, or "".
std::string lifetimeProblem(TranslationUnitContext &context, const LoopBuffer &loop,
                            const clang::FunctionDecl *function);

/// `break`/`continue` in `stmt` that leave it (bind to an enclosing loop).
const clang::Stmt *leavingJump(const clang::Stmt *stmt);

/// The first write of `buffer` (assignment, ++, address taken) in `loop`'s
/// body outside `skipped`, or nullptr.
const clang::Stmt *otherWrite(const clang::SourceManager &sm, const clang::VarDecl *buffer,
                              const clang::Stmt *loop, const clang::Stmt *skipped);

/// `buffer` is declared in `loop`'s body; the fix moves that declaration
/// before the loop with the allocation. Why it cannot ("it is initialized
/// with a value"), or "" and its statement in `declaration`.
std::string declarationProblem(clang::ASTContext &ast, const clang::VarDecl *buffer,
                               const clang::Stmt *loop, const clang::Stmt *allocStmt,
                               const clang::FunctionDecl *function,
                               const clang::Stmt *&declaration);

/// The statement holding `stmt` (through a VarDecl's DeclStmt), or nullptr.
const clang::Stmt *parentStatement(clang::ASTContext &ast, const clang::Stmt *stmt);
unsigned lineOf(const clang::SourceManager &sm, clang::SourceLocation at);

} // namespace streamlint
