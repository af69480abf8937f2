#include "analyzer/analysis/HostThreads.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "api/CudaApiTable.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/OpenMPKinds.h"

namespace streamlint {
namespace {

bool mayRunCuda(const clang::Stmt *statement, const clang::SourceManager &sm) {
  if (!statement)
    return false;
  if (llvm::isa<clang::CUDAKernelCallExpr>(statement))
    return true;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(statement)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !isLibraryFunction(*callee, sm) ||
        (callee->getIdentifier() && api::findApi(callee->getName())))
      return true;
  }
  if (const auto *construct = llvm::dyn_cast<clang::CXXConstructExpr>(statement)) {
    clang::SourceLocation at = construct->getConstructor()->getLocation();
    if (!(at.isValid() && sm.isInSystemHeader(sm.getExpansionLoc(at))))
      return true;
  }
  for (const clang::Stmt *child : statement->children())
    if (mayRunCuda(child, sm))
      return true;
  return false;
}

} // namespace

bool startsHostThread(const clang::FunctionDecl &callee) {
  if (!callee.getIdentifier())
    return false;
  llvm::StringRef name = callee.getName();
  if (name == "pthread_create" || name == "thrd_create" || name == "_beginthreadex" ||
      name == "CreateThread")
    return callee.getDeclContext()->getRedeclContext()->isTranslationUnit() ||
           callee.isExternC();
  // CMake may add -fopenmp to some builds only.
  if (name.starts_with("omp_") && callee.getDeclContext()->getRedeclContext()->isTranslationUnit())
    return true;
  return name == "async" && callee.isInStdNamespace();
}

std::string threadConstructed(const clang::CXXConstructExpr &construct) {
  std::string name = construct.getConstructor()->getParent()->getQualifiedNameAsString();
  if ((name == "std::thread" || name == "std::jthread" || name == "boost::thread") &&
      construct.getNumArgs() > 0 && !construct.getConstructor()->isCopyOrMoveConstructor())
    return name;
  return "";
}

bool openMpMayRunCuda(const clang::OMPExecutableDirective &directive,
                      const clang::SourceManager &sm) {
  const clang::Stmt *body = directive.hasAssociatedStmt() ? directive.getAssociatedStmt() : nullptr;
  while (const auto *captured = llvm::dyn_cast_or_null<clang::CapturedStmt>(body))
    body = captured->getCapturedStmt();
  return clang::isOpenMPTargetExecutionDirective(directive.getDirectiveKind()) ||
         mayRunCuda(body, sm);
}

} // namespace streamlint
