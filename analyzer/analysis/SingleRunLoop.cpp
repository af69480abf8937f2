#include "analyzer/analysis/SingleRunLoop.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

namespace streamlint {

static bool constantFalse(const clang::Expr *condition, const clang::ASTContext &ast) {
  if (!condition || condition->isValueDependent() || condition->isTypeDependent() ||
      condition->containsErrors())
    return false;
  bool value = true;
  return condition->EvaluateAsBooleanCondition(value, ast) && !value;
}

bool runsAtMostOnce(const clang::Stmt &loop, const clang::ASTContext &ast) {
  if (const auto *doLoop = llvm::dyn_cast<clang::DoStmt>(&loop))
    return constantFalse(doLoop->getCond(), ast);
  if (const auto *whileLoop = llvm::dyn_cast<clang::WhileStmt>(&loop))
    return !whileLoop->getConditionVariable() && constantFalse(whileLoop->getCond(), ast);
  if (const auto *forLoop = llvm::dyn_cast<clang::ForStmt>(&loop))
    return !forLoop->getConditionVariable() && constantFalse(forLoop->getCond(), ast);
  return false;
}

bool isRepeatingLoop(const clang::Stmt &stmt, const clang::ASTContext &ast) {
  if (!llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(
          &stmt))
    return false;
  return !runsAtMostOnce(stmt, ast);
}

const clang::Stmt *loopBodyOf(const clang::Stmt *loop) {
  if (const auto *s = llvm::dyn_cast<clang::ForStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::WhileStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::DoStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::CXXForRangeStmt>(loop)) return s->getBody();
  return nullptr;
}

} // namespace streamlint
