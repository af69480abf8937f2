// WaitLoopCover.h: a wait loop over an array of streams covering an earlier
// issuing loop with the same header.
#include "analyzer/analysis/WaitLoopCover.h"
#include "analyzer/analysis/NarrowedWaitParts.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {
using namespace narrowing;
namespace {

/// Two loop bounds that mean the same value: the same integer constant, or
/// the same variable.
bool sameBound(const clang::Expr *a, const clang::Expr *b, clang::ASTContext &ast) {
  a = a->IgnoreParenImpCasts();
  b = b->IgnoreParenImpCasts();
  const auto *ra = llvm::dyn_cast<clang::DeclRefExpr>(a);
  const auto *rb = llvm::dyn_cast<clang::DeclRefExpr>(b);
  if (ra && rb && llvm::isa<clang::VarDecl>(ra->getDecl()) &&
      ra->getDecl()->getCanonicalDecl() == rb->getDecl()->getCanonicalDecl())
    return true;
  std::optional<llvm::APSInt> ka = a->getIntegerConstantExpr(ast);
  std::optional<llvm::APSInt> kb = b->getIntegerConstantExpr(ast);
  return ka && kb && llvm::APSInt::isSameValue(*ka, *kb);
}

/// A bound that keeps its value from `from` on.
bool stableBound(const clang::Expr *bound, const clang::FunctionDecl &function,
                 clang::SourceLocation from, clang::ASTContext &ast) {
  bound = bound->IgnoreParenImpCasts();
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bound))
    if (const auto *variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (!variable->getType().isConstQualified() || !variable->hasGlobalStorage())
        return stableFrom(*variable, function, from, ast);
  return bound->isIntegerConstantExpr(ast);
}

bool onlyReads(const clang::ForStmt &loop, const clang::VarDecl &counter, clang::ASTContext &ast) {
  std::vector<const clang::DeclRefExpr *> uses;
  referencesTo(loop.getBody(), counter.getCanonicalDecl(), uses);
  return llvm::all_of(uses, [&](const clang::DeclRefExpr *use) { return isRead(*use, ast); });
}

const clang::CompoundStmt *blockOf(const clang::Stmt &stmt, clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  return parents.empty() ? nullptr : parents[0].get<clang::CompoundStmt>();
}

} // namespace

const clang::ForStmt *streamArrayLoop(const StreamOperation &op) {
  const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(op.node);
  if (!call)
    return nullptr;
  auto [array, index] = subscriptStream(*call);
  if (!array || !index)
    return nullptr;
  for (const clang::Stmt *loop : op.loops)
    if (const auto *f = llvm::dyn_cast<clang::ForStmt>(loop); f && countingVariable(*f) == index)
      return f;
  return nullptr;
}

bool escapes(const clang::Stmt *stmt, bool breakBound, bool continueBound) {
  if (!stmt)
    return false;
  if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt>(stmt))
    return true;
  if (llvm::isa<clang::BreakStmt>(stmt))
    return !breakBound;
  if (llvm::isa<clang::ContinueStmt>(stmt))
    return !continueBound;
  if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt))
    breakBound = continueBound = true;
  else if (llvm::isa<clang::SwitchStmt>(stmt))
    breakBound = true;
  for (const clang::Stmt *child : stmt->children())
    if (escapes(child, breakBound, continueBound))
      return true;
  return false;
}

bool waitLoopCovers(const StreamOperation &wait, const StreamOperation &work,
                    const clang::FunctionDecl &function) {
  const auto *waitCall = llvm::dyn_cast_or_null<clang::CallExpr>(wait.node);
  const auto *workCall = llvm::dyn_cast_or_null<clang::CallExpr>(work.node);
  if (!waitCall || !workCall || wait.effect != OperationEffect::HostWaitsStream ||
      work.effect != OperationEffect::Enqueue || wait.recordedBy || wait.loops.empty())
    return false;
  const clang::FunctionDecl *callee = waitCall->getDirectCallee();
  if (!callee || callee->getName() != "cudaStreamSynchronize")
    return false;
  auto [waitArray, waitCounter] = subscriptStream(*waitCall);
  auto [workArray, workCounter] = subscriptStream(*workCall);
  const auto *waitLoop = llvm::dyn_cast<clang::ForStmt>(wait.loops.front());
  const clang::ForStmt *workLoop = streamArrayLoop(work);
  if (!waitArray || !workArray || !waitLoop || !workLoop ||
      waitArray->getCanonicalDecl() != workArray->getCanonicalDecl() ||
      countingVariable(*waitLoop) != waitCounter)
    return false;
  // Directly in the wait loop's body: no branch around the wait in it.
  for (const clang::Stmt *condition : wait.conditions)
    if (condition != waitLoop && !llvm::is_contained(work.conditions, condition))
      return false;
  clang::ASTContext &ast = function.getASTContext();
  const clang::SourceManager &sm = ast.getSourceManager();
  const clang::CompoundStmt *block = blockOf(*workLoop, ast);
  if (!block || blockOf(*waitLoop, ast) != block)
    return false;
  const auto *first = llvm::find(block->body(), workLoop);
  const auto *last = llvm::find(block->body(), waitLoop);
  if (first == block->body_end() || last == block->body_end() || !(first < last))
    return false;
  // The same header: the same comparison, the same bounds.
  const auto *workCondition = llvm::cast<clang::BinaryOperator>(workLoop->getCond());
  const auto *waitCondition = llvm::cast<clang::BinaryOperator>(waitLoop->getCond());
  if (workCondition->getOpcode() != waitCondition->getOpcode() ||
      !sameBound(workCounter->getInit(), waitCounter->getInit(), ast) ||
      !sameBound(workCondition->getRHS(), waitCondition->getRHS(), ast))
    return false;
  clang::SourceLocation from = sm.getExpansionLoc(workLoop->getBeginLoc());
  clang::SourceLocation to = sm.getExpansionLoc(waitLoop->getEndLoc());
  if (!stableBound(workCounter->getInit(), function, from, ast) ||
      !stableBound(workCondition->getRHS(), function, from, ast) ||
      !arrayUntouched(*workArray, function, from, to, ast) ||
      !onlyReads(*workLoop, *workCounter, ast) || !onlyReads(*waitLoop, *waitCounter, ast))
    return false;
  // Every run of the first loop goes on to every iteration of the wait loop.
  if (escapes(waitLoop->getBody()))
    return false;
  for (const auto *stmt = first; stmt != last; ++stmt)
    if (escapes(*stmt))
      return false;
  return true;
}

} // namespace streamlint
