#include "analyzer/analysis/DeviceLoop.h"

#include "analyzer/analysis/SingleRunLoop.h"
#include "api/CudaApiTable.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace streamlint {
namespace {

using Variables = llvm::SmallPtrSet<const clang::VarDecl *, 4>;

/// Every variable `stmt` names.
void collectVariables(const clang::Stmt *stmt, Variables &out) {
  if (!stmt)
    return;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      out.insert(var);
  if (const auto *declStmt = llvm::dyn_cast<clang::DeclStmt>(stmt))
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(decl))
        out.insert(var);
  for (const clang::Stmt *child : stmt->children())
    collectVariables(child, out);
}

bool readsAny(const clang::Stmt *stmt, const Variables &stepped) {
  if (!stmt)
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      return stepped.count(var) != 0;
  for (const clang::Stmt *child : stmt->children())
    if (readsAny(child, stepped))
      return true;
  return false;
}

/// Variables the body sets from a stepped one (`int device = gpus[i];`,
/// `device = list->ids[i];`): they step with the loop too.
void addDerivedVariables(const clang::Stmt *stmt, Variables &stepped) {
  if (!stmt)
    return;
  if (const auto *declStmt = llvm::dyn_cast<clang::DeclStmt>(stmt))
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(decl))
        if (var->getInit() && readsAny(var->getInit(), stepped))
          stepped.insert(var);
  if (const auto *assign = llvm::dyn_cast<clang::BinaryOperator>(stmt))
    if (assign->isAssignmentOp())
      if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts()))
        if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
          if (readsAny(assign->getRHS(), stepped))
            stepped.insert(var);
  for (const clang::Stmt *child : stmt->children())
    addDerivedVariables(child, stepped);
}

bool selectsSteppedDevice(const clang::Stmt *stmt, const Variables &stepped,
                          const clang::ASTContext &ast) {
  // A nested loop's body runs many times per iteration; `do { } while (0)`
  // (CUDA_CHECK(cudaSetDevice(d))) runs once and is looked into.
  if (!stmt || llvm::isa<clang::LambdaExpr>(stmt) || isRepeatingLoop(*stmt, ast))
    return false;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (callee && callee->getIdentifier() && call->getNumArgs() > 0) {
      llvm::StringRef name = callee->getName();
      const api::ApiInfo *row = api::findApi(std::string_view(name.data(), name.size()));
      if (row && api::selectsDevice(*row) && readsAny(call->getArg(0), stepped))
        return true;
    }
  }
  for (const clang::Stmt *child : stmt->children())
    if (selectsSteppedDevice(child, stepped, ast))
      return true;
  return false;
}

} // namespace

bool visitsEachDeviceOnce(const clang::Stmt &loop, const clang::ASTContext &ast) {
  Variables stepped;
  const clang::Stmt *body = nullptr;
  if (const auto *forLoop = llvm::dyn_cast<clang::ForStmt>(&loop)) {
    collectVariables(forLoop->getInit(), stepped);
    collectVariables(forLoop->getInc(), stepped);
    body = forLoop->getBody();
  } else if (const auto *rangeFor = llvm::dyn_cast<clang::CXXForRangeStmt>(&loop)) {
    stepped.insert(rangeFor->getLoopVariable());
    body = rangeFor->getBody();
  }
  if (!body || stepped.empty())
    return false;
  addDerivedVariables(body, stepped);
  return selectsSteppedDevice(body, stepped, ast);
}

bool selectsDevices(const clang::FunctionDecl &function, unsigned depth) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    unsigned depth;
    bool found = false;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (!callee)
        return true;
      if (callee->getIdentifier())
        if (const api::ApiInfo *row = api::findApi(callee->getName());
            row && api::selectsDevice(*row))
          found = true;
      const clang::FunctionDecl *definition = callee->getDefinition();
      if (!found && depth < 4 && definition) {
        const clang::SourceManager &sm = definition->getASTContext().getSourceManager();
        if (!sm.isInSystemHeader(sm.getExpansionLoc(definition->getLocation())))
          found = selectsDevices(*definition, depth + 1);
      }
      return !found;
    }
  } finder;
  finder.depth = depth;
  if (function.hasBody())
    finder.TraverseStmt(function.getBody());
  return finder.found;
}

} // namespace streamlint
