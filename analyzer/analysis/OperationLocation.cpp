#include "analyzer/analysis/OperationLocation.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace streamlint {
namespace {

/// Whether `stmt` holds a statement that leaves it other than by its end
/// (return, break, continue, goto, throw, co_return).
bool jumpsOut(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (llvm::isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt,
                clang::IndirectGotoStmt, clang::CXXThrowExpr, clang::CoreturnStmt>(stmt))
    return true;
  for (const clang::Stmt *child : stmt->children())
    if (jumpsOut(child))
      return true;
  return false;
}

/// A branch whose last statement is a call of a noreturn function (exit,
/// abort) and that nothing leaves early: after it the program has ended.
bool endsProgram(const clang::Stmt *branch) {
  const clang::Stmt *last = branch;
  while (const auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(last))
    last = block->body_empty() ? nullptr : block->body_back();
  const auto *expr = llvm::dyn_cast_or_null<clang::Expr>(last);
  const auto *call = expr ? llvm::dyn_cast<clang::CallExpr>(expr->IgnoreParenImpCasts()) : nullptr;
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  return callee && callee->isNoReturn() && !jumpsOut(branch);
}

/// Records `parent` in op's branches or loops when `from`, its child on
/// the way up from op.node, runs conditionally or repeatedly in it.
void addEnclosing(StreamOperation &op, const clang::Stmt *parent, const clang::Stmt *from,
                  clang::ASTContext &ast) {
  if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent)) {
    if (from != branch->getCond() && from != branch->getInit() &&
        from != branch->getConditionVariableDeclStmt()) {
      op.conditions.push_back(parent);
      if (!op.endsProgram && endsProgram(from))
        op.endsProgram = parent;
    }
  } else if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::CXXForRangeStmt>(parent)) {
    const auto *forStmt = llvm::dyn_cast<clang::ForStmt>(parent);
    if (!forStmt || from != forStmt->getInit()) {
      op.conditions.push_back(parent);
      op.loops.push_back(parent);
    }
  } else if (const auto *doStmt = llvm::dyn_cast<clang::DoStmt>(parent)) {
    // The body runs at least once; `do ... while (0)` is not a loop.
    clang::Expr::EvalResult value;
    bool once = doStmt->getCond()->EvaluateAsInt(value, ast) && value.Val.getInt() == 0;
    if (!once)
      op.loops.push_back(parent);
  } else if (llvm::isa<clang::SwitchStmt>(parent)) {
    if (from == llvm::cast<clang::SwitchStmt>(parent)->getBody())
      op.conditions.push_back(parent);
  } else if (const auto *choice = llvm::dyn_cast<clang::AbstractConditionalOperator>(parent)) {
    if (from != choice->getCond())
      op.conditions.push_back(parent);
  } else if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
    if (binary->isLogicalOp() && from == binary->getRHS())
      op.conditions.push_back(parent);
  }
}

/// Whether the parent map may answer for a node of `function`'s body
/// with a parent outside the body: a template's pattern and its
/// instantiations share the statements that do not depend on the
/// template's parameters (the map gives the parent from the body it
/// walked first), and a lambda's body has the lambda expression, in the
/// enclosing function, as its parent.
bool mayShareNodes(const clang::FunctionDecl &function) {
  if (function.isDependentContext() || function.getTemplateInstantiationPattern())
    return true;
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&function);
  return method && method->getParent()->isLambda();
}

/// Fills the branches and loops between `op.node` and the body, from
/// clang's parent map.
void locateWithParentMap(StreamOperation &op, clang::ASTContext &ast) {
  clang::DynTypedNode child = clang::DynTypedNode::create(*op.node);
  for (int guard = 0; guard < 256; ++guard) {
    auto parents = ast.getParents(child);
    if (parents.empty())
      return;
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      return; // reached the function
    addEnclosing(op, parent, child.get<clang::Stmt>(), ast);
    child = parents[0];
  }
}

/// locateWithParentMap() from the walk's path, without the parent map:
/// what the map answers for a node the walk reached once. False where the
/// map's answer may differ (mayShareNodes, and C++20's rewritten
/// comparisons, whose operands the walk visits directly).
bool locateOnPath(StreamOperation &op, const std::vector<const clang::Stmt *> &path,
                  const clang::FunctionDecl &function, clang::ASTContext &ast) {
  if (path.empty() || path.back() != op.node || mayShareNodes(function))
    return false;
  for (size_t at = path.size() - 1; at > 0; --at) {
    if (path.size() - 1 - at >= 256)
      return true; // locateWithParentMap()'s bound
    const clang::Stmt *from = path[at];
    const clang::Stmt *parent = path[at - 1];
    if (!parent)
      return true; // a declaration's initializer, a type's expression
    if (llvm::isa<clang::CXXRewrittenBinaryOperator>(parent))
      return false;
    if (const auto *range = llvm::dyn_cast<clang::CXXForRangeStmt>(parent))
      if (from == range->getRangeInit())
        return true; // the parent map's parent: the range variable
    if (llvm::isa<clang::DeclStmt>(parent))
      return true; // reached through the declaration (not in the path)
    addEnclosing(op, parent, from, ast);
  }
  return true; // at the body, whose parent is the function
}

} // namespace

void locateOperation(StreamOperation &op, const std::vector<const clang::Stmt *> &path,
                     const clang::FunctionDecl &function, clang::ASTContext &ast) {
  if (locateOnPath(op, path, function, ast))
    return;
  op.conditions.clear();
  op.loops.clear();
  op.endsProgram = nullptr;
  locateWithParentMap(op, ast);
}

} // namespace streamlint
