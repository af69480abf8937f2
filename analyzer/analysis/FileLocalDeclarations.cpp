#include "analyzer/analysis/FileLocalDeclarations.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace streamlint {
namespace {

/// Finds what the index treats as closed in the TU: a host function, class
/// or global pointer variable with no external visibility, or a lambda
/// whose call operator has none (holdsFileLocalDeclaration).
class FileLocalFinder : public clang::RecursiveASTVisitor<FileLocalFinder> {
public:
  bool found = false;

  bool VisitFunctionDecl(clang::FunctionDecl *function) {
    // Device code is not the host's provenance (a kernel is launched, and
    // a __device__ function is called from device code).
    bool deviceOnly = function->hasAttr<clang::CUDAGlobalAttr>() ||
                      (function->hasAttr<clang::CUDADeviceAttr>() &&
                       !function->hasAttr<clang::CUDAHostAttr>());
    return note(!deviceOnly && !function->isExternallyVisible());
  }
  bool VisitCXXRecordDecl(clang::CXXRecordDecl *record) {
    return note(!record->isLambda() && !record->isExternallyVisible());
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    return note(var->getType()->isPointerType() && var->hasGlobalStorage() &&
                !var->isStaticLocal() &&
                !var->isExternallyVisible());
  }
  bool VisitLambdaExpr(clang::LambdaExpr *lambda) {
    return note(!lambda->getCallOperator()->isExternallyVisible());
  }

private:
  bool note(bool fileLocal) {
    found = found || fileLocal;
    return !found; // stops the walk once found
  }
};

} // namespace

bool holdsFileLocalDeclaration(clang::Decl &decl) {
  FileLocalFinder finder;
  finder.TraverseDecl(&decl);
  return finder.found;
}

} // namespace streamlint
