#include "analyzer/analysis/ColdPath.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Type.h"

namespace streamlint {
namespace {

/// cudaError_t, CUresult, cublasStatus_t, ncclResult_t, cufftResult, ...: an
/// enum whose name says it is a status, success being 0.
bool isStatusType(clang::QualType type) {
  const auto *enumType = type.getCanonicalType()->getAs<clang::EnumType>();
  if (!enumType)
    return false;
  const clang::EnumDecl *decl = enumType->getDecl();
  // cuBLAS' and cuSPARSE's `typedef enum { ... } cublasStatus_t;`: the
  // typedef names the anonymous enum.
  llvm::StringRef name = decl->getName();
  if (name.empty())
    if (const clang::TypedefNameDecl *typedefName = decl->getTypedefNameForAnonDecl())
      name = typedefName->getName();
  std::string lower = name.lower();
  llvm::StringRef text(lower);
  return text.contains("error") || text.contains("result") || text.contains("status");
}

bool isStatus(const clang::Expr *expr) {
  return expr && isStatusType(expr->IgnoreParenImpCasts()->getType());
}

bool isZero(const clang::Expr *expr, const clang::ASTContext &ast) {
  if (!expr || expr->isValueDependent())
    return false;
  clang::Expr::EvalResult value;
  return expr->IgnoreParenImpCasts()->EvaluateAsInt(value, ast) && value.Val.getInt() == 0;
}

enum class Outcome { Unknown, Failed, Succeeded };

/// What the condition being true says about a status it tests.
Outcome conditionMeans(const clang::Expr *condition, const clang::ASTContext &ast) {
  if (!condition)
    return Outcome::Unknown;
  condition = condition->IgnoreParenImpCasts();
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(condition)) {
    if (unary->getOpcode() != clang::UO_LNot)
      return Outcome::Unknown;
    Outcome inner = conditionMeans(unary->getSubExpr(), ast);
    return inner == Outcome::Failed      ? Outcome::Succeeded
           : inner == Outcome::Succeeded ? Outcome::Failed
                                         : Outcome::Unknown;
  }
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(condition)) {
    // Failed: the condition true says a call failed; Succeeded: the
    // condition false does. `a || b` true is one of them true, false both
    // false; `a && b` the other way round (batchCUBLAS:
    // `if ((err1 != cudaSuccess) || (err2 != cudaSuccess)) { CLEANUP(); ... }`).
    if (binary->getOpcode() == clang::BO_LOr || binary->getOpcode() == clang::BO_LAnd) {
      Outcome left = conditionMeans(binary->getLHS(), ast);
      Outcome right = conditionMeans(binary->getRHS(), ast);
      Outcome one = binary->getOpcode() == clang::BO_LAnd ? Outcome::Failed : Outcome::Succeeded;
      Outcome both = binary->getOpcode() == clang::BO_LAnd ? Outcome::Succeeded : Outcome::Failed;
      if (left == one || right == one)
        return one;
      return left == both && right == both ? both : Outcome::Unknown;
    }
    if (binary->getOpcode() != clang::BO_NE && binary->getOpcode() != clang::BO_EQ)
      return Outcome::Unknown;
    const clang::Expr *lhs = binary->getLHS(), *rhs = binary->getRHS();
    // Two statuses calls returned (`status2 != status1`, neither a
    // constant): differing, one of them is not success.
    bool testsStatus = (isStatus(lhs) && isZero(rhs, ast)) || (isStatus(rhs) && isZero(lhs, ast)) ||
                       (isStatus(lhs) && isStatus(rhs) && !lhs->isValueDependent() &&
                        !rhs->isValueDependent() && !lhs->isEvaluatable(ast) &&
                        !rhs->isEvaluatable(ast));
    if (!testsStatus)
      return Outcome::Unknown;
    return binary->getOpcode() == clang::BO_NE ? Outcome::Failed : Outcome::Succeeded;
  }
  // `if (err)`: a status used as a truth value is true when it failed.
  return isStatus(condition) ? Outcome::Failed : Outcome::Unknown;
}

const clang::Stmt *lastStatement(const clang::Stmt *stmt) {
  while (const auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(stmt)) {
    if (block->body_empty())
      return nullptr;
    stmt = block->body_back();
  }
  return stmt;
}

bool leavesFunction(const clang::Stmt *branch) {
  const clang::Stmt *last = lastStatement(branch);
  if (!last)
    return false;
  if (llvm::isa<clang::ReturnStmt>(last))
    return true;
  const auto *expr = llvm::dyn_cast<clang::Expr>(last);
  if (!expr)
    return false;
  expr = expr->IgnoreParenImpCasts();
  if (llvm::isa<clang::CXXThrowExpr>(expr))
    return true;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(expr))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      return callee->isNoReturn();
  return false;
}

const clang::Expr *bare(const clang::Expr *expr) {
  if (const auto *temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    expr = temporary->getSubExpr();
  return expr->IgnoreParenImpCasts();
}

bool isNull(const clang::Expr *expr, const clang::ASTContext &ast) {
  expr = bare(expr);
  return llvm::isa<clang::CXXNullPtrLiteralExpr, clang::GNUNullExpr>(expr) || isZero(expr, ast);
}

/// A variable declared inside a loop body starts unset on every iteration:
/// testing it for null is not lazy initialization.
bool declaredInLoop(const clang::Expr *target, clang::ASTContext &ast) {
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(target);
  const auto *variable = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!variable || !variable->hasLocalStorage())
    return false;
  clang::DynTypedNodeList parents = ast.getParents(*variable);
  for (int depth = 0; depth < 64 && !parents.empty(); ++depth) {
    const clang::DynTypedNode &parent = parents[0];
    if (parent.get<clang::FunctionDecl>() || parent.get<clang::LambdaExpr>())
      return false;
    if (parent.get<clang::ForStmt>() || parent.get<clang::WhileStmt>() ||
        parent.get<clang::DoStmt>() || parent.get<clang::CXXForRangeStmt>())
      return true;
    parents = ast.getParents(parent);
  }
  return false;
}

/// `p == nullptr`, `!p`, `p == NULL`, `ptr == nullptr` on a smart pointer:
/// the object tested for being unset; null otherwise.
const clang::Expr *testedForNull(const clang::Expr *condition, const clang::ASTContext &ast) {
  condition = bare(condition);
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(condition))
    return unary->getOpcode() == clang::UO_LNot ? bare(unary->getSubExpr()) : nullptr;
  const clang::Expr *lhs = nullptr, *rhs = nullptr;
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(condition)) {
    if (binary->getOpcode() == clang::BO_EQ)
      lhs = binary->getLHS(), rhs = binary->getRHS();
  } else if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(condition)) {
    if (op->getOperator() == clang::OO_EqualEqual && op->getNumArgs() == 2)
      lhs = op->getArg(0), rhs = op->getArg(1);
  }
  if (!lhs)
    return nullptr;
  if (isNull(rhs, ast))
    return bare(lhs);
  return isNull(lhs, ast) ? bare(rhs) : nullptr;
}

/// The same object, spelled the same way (`work[device]`, `this->pool`).
bool sameObject(const clang::Expr *a, const clang::Expr *b, const clang::ASTContext &ast) {
  llvm::FoldingSetNodeID first, second;
  bare(a)->Profile(first, ast, /*Canonical=*/true);
  b->Profile(second, ast, /*Canonical=*/true);
  return first == second;
}

/// An assignment to `target`, or its address passed on (`cublasCreate(&target)`).
bool writes(const clang::Stmt *stmt, const clang::Expr *target, const clang::ASTContext &ast) {
  if (!stmt)
    return false;
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(stmt))
    if (binary->isAssignmentOp() &&
        sameObject(binary->getLHS(), target, ast))
      return true;
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(stmt))
    if (op->getOperator() == clang::OO_Equal && op->getNumArgs() == 2 &&
        sameObject(op->getArg(0), target, ast))
      return true;
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(stmt))
    if (unary->getOpcode() == clang::UO_AddrOf &&
        sameObject(unary->getSubExpr(), target, ast))
      return true;
  for (const clang::Stmt *child : stmt->children())
    if (writes(child, target, ast))
      return true;
  return false;
}

} // namespace

BranchKind classifyBranch(const clang::IfStmt &branch, bool thenBranch,
                          const clang::ASTContext &ast) {
  const clang::Stmt *body = thenBranch ? branch.getThen() : branch.getElse();
  if (!body)
    return BranchKind::Repeats;
  Outcome whenTrue = conditionMeans(branch.getCond(), ast);
  if ((thenBranch && whenTrue == Outcome::Failed) ||
      (!thenBranch && whenTrue == Outcome::Succeeded))
    return BranchKind::HandlesError;
  if (thenBranch)
    if (const clang::Expr *unset = testedForNull(branch.getCond(), ast))
      if (writes(body, unset, ast) &&
          !declaredInLoop(unset, const_cast<clang::ASTContext &>(ast)))
        return BranchKind::LazyInit;
  return leavesFunction(body) ? BranchKind::LeavesFunction : BranchKind::Repeats;
}

} // namespace streamlint
