#pragma once
// `do { ... } while (0)` and `while (false)`: loop statements whose body runs
// at most once. Error-check macros (CUDA_CHECK) are written this way; every
// check and the call-chain notes treat their bodies as straight-line code.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace streamlint {

/// True for a do/while/for statement whose condition is a constant false
/// (`do {} while (0)`, `while (false)`, `for (; 0;)`): its body runs once (do)
/// or never. Dependent conditions in templates are not constant here.
bool runsAtMostOnce(const clang::Stmt &loop, const clang::ASTContext &ast);

/// A loop statement that really repeats: for, while, do and range-for,
/// except those runsAtMostOnce accepts.
bool isRepeatingLoop(const clang::Stmt &stmt, const clang::ASTContext &ast);

/// The body of a for, while, do or range-for statement; nullptr for any
/// other statement.
const clang::Stmt *loopBodyOf(const clang::Stmt *loop);

} // namespace streamlint
