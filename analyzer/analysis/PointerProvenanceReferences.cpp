// PointerProvenance's references and iterators: the object a reference is
// bound to (a caller's argument, a local's initializer) and the container an
// iterator points into.
#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/analysis/PointerProvenanceWalk.h"
#include "analyzer/analysis/ProvenanceIndex.h"

#include "clang/AST/ExprCXX.h"

namespace streamlint {

Provenance PointerProvenance::iteratorStorage(const clang::Expr *iterator,
                                              const clang::Stmt *use, Walk &walk) {
  if (!iterator || walk.depth > MaxDepth)
    return unknown();
  iterator = iterator->IgnoreImplicit()->IgnoreParens();
  if (const auto *construct = llvm::dyn_cast<clang::CXXConstructExpr>(iterator))
    if (construct->getNumArgs() == 1) // an iterator copied
      return iteratorStorage(construct->getArg(0), use, walk);
  if (iterator->getType()->isPointerType()) // std::array's iterators, T*
    return evaluate(iterator, use, walk);
  if (const auto *callExpr = llvm::dyn_cast<clang::CallExpr>(iterator))
    return call(callExpr, use, walk);
  return unknown();
}

Provenance PointerProvenance::referent(const clang::VarDecl *reference,
                                       const clang::Stmt *use, Walk &walk) {
  if (!walk.active.insert(reference).second || walk.depth > MaxDepth)
    return unknown();
  ++walk.depth;
  Provenance result = unknown();
  if (const auto *parm = llvm::dyn_cast<clang::ParmVarDecl>(reference)) {
    const auto *function = llvm::dyn_cast<clang::FunctionDecl>(parm->getDeclContext());
    const std::vector<const clang::CallExpr *> *callers =
        function ? index_->visibleCallers(function) : nullptr;
    if (!callers || callers->empty()) {
      result = openParameter(parm, function);
    } else {
      unsigned argument = parm->getFunctionScopeIndex();
      if (callers->front() && llvm::isa<clang::CXXOperatorCallExpr>(callers->front()) &&
          llvm::isa<clang::CXXMethodDecl>(function))
        ++argument;
      result = leaf(MemoryKind::Null, "", {}, nullptr);
      for (const clang::CallExpr *caller : *callers) {
        if (argument >= caller->getNumArgs()) {
          result = unknown();
          break;
        }
        result = mergeProvenance(result, storageOf(caller->getArg(argument), caller, walk));
        if (result.kind == MemoryKind::Unknown)
          break;
      }
      result.holder = nullptr;
    }
  } else if (reference->hasLocalStorage() && reference->getInit()) {
    // A local reference is bound once, to its initializer.
    result = storageOf(reference->getInit(), use, walk);
  }
  --walk.depth;
  walk.active.erase(reference);
  return result;
}

} // namespace streamlint
