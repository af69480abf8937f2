#include "analyzer/analysis/AnalysisScope.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {

std::vector<clang::Decl *> userTopLevelDeclarations(clang::ASTContext &ast) {
  const clang::SourceManager &sources = ast.getSourceManager();
  std::vector<clang::Decl *> declarations;
  for (clang::Decl *decl : ast.getTranslationUnitDecl()->decls()) {
    clang::SourceLocation location = decl->getLocation();
    // The same test CallGraphBuilder skips a declaration by.
    if (location.isValid() && sources.isInSystemHeader(sources.getExpansionLoc(location)))
      continue;
    declarations.push_back(decl);
  }
  return declarations;
}

void limitTraversalToUserCode(clang::ASTContext &ast) {
  ast.setTraversalScope(userTopLevelDeclarations(ast));
}

bool traversesWholeTranslationUnit(const clang::ASTContext &ast) {
  const std::vector<clang::Decl *> &scope = ast.getTraversalScope();
  return scope.size() == 1 && llvm::isa<clang::TranslationUnitDecl>(scope.front());
}

bool traversedThroughItsExpression(const clang::Decl &decl) {
  if (llvm::isa<clang::BlockDecl>(decl) || llvm::isa<clang::CapturedDecl>(decl))
    return true;
  const auto *record = llvm::dyn_cast<clang::CXXRecordDecl>(&decl);
  return record && record->isLambda();
}

} // namespace streamlint
