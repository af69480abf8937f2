// PointerProvenance, the part about functions that return pointers: what a
// user function's returns return (malloc/new/cudaMallocHost wrappers, after
// checks), followed into bodies in this TU or left to the whole program.
#include "analyzer/analysis/PointerProvenanceWalk.h"
#include "analyzer/analysis/AnalysisScope.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {
namespace {

/// The return statements of `function`'s own body (not of its lambdas or
/// local classes).
std::vector<const clang::ReturnStmt *> returnStatements(const clang::Stmt *stmt) {
  std::vector<const clang::ReturnStmt *> found;
  if (!stmt)
    return found;
  if (const auto *ret = llvm::dyn_cast<clang::ReturnStmt>(stmt))
    found.push_back(ret);
  for (const clang::Stmt *child : stmt->children()) {
    if (!child || llvm::isa<clang::LambdaExpr>(child) || llvm::isa<clang::DeclStmt>(child))
      continue;
    std::vector<const clang::ReturnStmt *> inner = returnStatements(child);
    found.insert(found.end(), inner.begin(), inner.end());
  }
  return found;
}

} // namespace

/// A call to a user function returning a pointer: what its returns return
/// when its body is in this TU, else a question for the whole program.
Provenance PointerProvenance::userFunction(const clang::CallExpr *callExpr,
                                           const clang::FunctionDecl *callee,
                                           Walk &walk) {
  const clang::SourceManager &sm = ast_.getSourceManager();
  if (!callee->getReturnType()->isPointerType() ||
      isLibraryFunction(*callee, sm))
    return unknown();
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
    if (method->isVirtual())
      return unknown(); // an override may return anything
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->hasBody(definition) || !definition) {
    if (callee->isTemplateInstantiation() || callee->isInlined())
      return unknown(); // defined where it is used, or nowhere
    // Each call returns its own buffer: the call is the memory's identity,
    // so a cudaHostRegister of this result (and only of it) pins it.
    Provenance elsewhere;
    elsewhere.returnedBy = callee->getCanonicalDecl();
    elsewhere.site = callExpr;
    return applyRegistration(elsewhere, walk);
  }
  if (walk.depth > MaxDepth || !walk.active.insert(definition).second)
    return unknown(); // recursion
  ++walk.depth;
  Provenance result = returnedMemory(*definition, walk);
  --walk.depth;
  walk.active.erase(definition);
  result.holder = nullptr; // the wrapper's variable, not the caller's
  if (result.kind != MemoryKind::Pageable || !result.site)
    return result;
  result.origin += ", returned by '" + definition->getQualifiedNameAsString() + "'";
  result.site = callExpr; // each call returns its own buffer
  return applyRegistration(result, walk);
}

Provenance PointerProvenance::returnedFrom(const clang::FunctionDecl &function) {
  Walk walk{nullptr, &function};
  walk.active.insert(&function);
  return returnedMemory(function, walk);
}

Provenance PointerProvenance::returnedMemory(const clang::FunctionDecl &function,
                                             Walk &walk) {
  std::vector<const clang::ReturnStmt *> returns = returnStatements(function.getBody());
  Provenance result = leaf(MemoryKind::Null, "", {}, nullptr);
  bool any = false;
  for (const clang::ReturnStmt *ret : returns) {
    if (!ret->getRetValue())
      return unknown();
    result = mergeProvenance(result, evaluate(ret->getRetValue(), ret, walk));
    any = true;
    if (result.kind == MemoryKind::Unknown)
      return result;
  }
  return any ? result : unknown();
}


} // namespace streamlint
