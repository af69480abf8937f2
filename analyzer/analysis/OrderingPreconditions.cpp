// OrderingPreconditions.h: refusals decided before the ordering walks.
#include "analyzer/analysis/OrderingPreconditions.h"
#include "analyzer/analysis/StreamOperations.h"

#include "api/CudaApiTable.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {

const clang::CallExpr *destroyedBefore(const clang::FunctionDecl &function,
                                       const clang::ValueDecl &target, const clang::Stmt &site,
                                       TranslationUnitContext &context) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::Decl *target;
    std::vector<const clang::CallExpr *> found;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (!callee || !callee->getIdentifier() || call->getNumArgs() < 1)
        return true;
      const api::ApiInfo *row = api::findApi(callee->getName());
      if (!row || row->lifecycle != api::StreamLifecycle::Destroys)
        return true;
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
      if (ref && ref->getDecl()->getCanonicalDecl() == target)
        found.push_back(call);
      return true;
    }
  } finder;
  finder.target = target.getCanonicalDecl();
  if (!function.hasBody())
    return nullptr;
  finder.TraverseStmt(function.getBody());
  const clang::SourceManager &sm = context.sources();
  clang::SourceLocation at = sm.getExpansionLoc(site.getBeginLoc());
  for (const clang::CallExpr *destroy : finder.found) {
    clang::SourceLocation where = sm.getExpansionLoc(destroy->getBeginLoc());
    bool inLoop = false;
    for (clang::DynTypedNode node = clang::DynTypedNode::create(*destroy);;) {
      auto parents = context.ast().getParents(node);
      if (parents.empty() || !parents[0].get<clang::Stmt>())
        break;
      const clang::Stmt *parent = parents[0].get<clang::Stmt>();
      inLoop = inLoop ||
               llvm::isa<clang::ForStmt, clang::WhileStmt, clang::CXXForRangeStmt, clang::DoStmt>(
                   parent);
      node = parents[0];
    }
    if (inLoop || sm.isBeforeInTranslationUnit(where, at))
      return destroy;
  }
  return nullptr;
}

OrderingVerdict destroyedVerdict(const clang::CallExpr &destroy, const clang::ValueDecl &target,
                                 const clang::FunctionDecl &function,
                                 TranslationUnitContext &context) {
  OrderingVerdict verdict;
  verdict.brokenBy = "'" + target.getNameAsString() + "' is destroyed (cudaStreamDestroy at " +
                     describeLine(destroy, function, context.sources()) +
                     ") before this point, so the work would be issued to a destroyed stream";
  return verdict;
}

std::string calleeProblem(const clang::CallExpr &call, const clang::ParmVarDecl &parameter,
                          TranslationUnitContext &context, bool perThreadBuild) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  const clang::FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->hasBody())
    return "the body of the called function is not visible";
  unsigned index = parameter.getFunctionScopeIndex();
  if (index >= definition->getNumParams())
    return "the called function's stream parameter could not be found";
  FunctionOperations inner = operationsOf(*definition, context.ast(), perThreadBuild);
  const clang::Decl *param = definition->getParamDecl(index)->getCanonicalDecl();
  for (const StreamOperation &op : inner.operations) {
    bool onParameter = op.stream.kind == OrderingStream::Variable && op.stream.variable == param;
    if (op.effect == OperationEffect::Neutral || op.effect == OperationEffect::Return ||
        op.effect == OperationEffect::HostWaitsAll ||
        ((op.effect == OperationEffect::Enqueue || op.effect == OperationEffect::HostWaitsStream) &&
         onParameter))
      continue;
    return "inside '" + definition->getNameAsString() + "', the " + op.what + " at " +
           describeLine(*op.node, *definition, context.sources()) +
           " does not use the stream parameter and relied on the legacy "
           "stream's ordering";
  }
  return "";
}

} // namespace streamlint
