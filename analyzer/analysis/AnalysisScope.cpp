#include "analyzer/analysis/AnalysisScope.h"

#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/support/Paths.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace streamlint {

namespace {

/// Whether a file is walked: the main file, or one under a walked directory.
class WalkedFiles {
public:
  WalkedFiles(const clang::SourceManager &sources, const std::vector<std::string> &directories)
      : sources_(sources), directories_(directories) {}

  bool holds(clang::FileID file) {
    if (directories_.empty() || file == sources_.getMainFileID())
      return true;
    auto [it, inserted] = walked_.try_emplace(file, true);
    if (inserted)
      it->second = underDirectories(file);
    return it->second;
  }

private:
  bool underDirectories(clang::FileID file) const {
    std::string path = absoluteFileName(sources_, file);
    if (path.empty())
      return true; // a built-in or command-line buffer
    for (const std::string &directory : directories_)
      if (pathUnderBase(path, directory))
        return true;
    return false;
  }

  const clang::SourceManager &sources_;
  const std::vector<std::string> &directories_;
  llvm::DenseMap<clang::FileID, bool> walked_;
};

} // namespace

std::vector<clang::Decl *>
userTopLevelDeclarations(clang::ASTContext &ast,
                         const std::vector<std::string> &walkedDirectories) {
  const clang::SourceManager &sources = ast.getSourceManager();
  WalkedFiles walked(sources, walkedDirectories);
  std::vector<clang::Decl *> declarations;
  for (clang::Decl *decl : ast.getTranslationUnitDecl()->decls()) {
    clang::SourceLocation location = decl->getLocation();
    if (location.isValid()) {
      clang::SourceLocation expansion = sources.getExpansionLoc(location);
      // The same test CallGraphBuilder skips a declaration by.
      if (sources.isInSystemHeader(expansion) || !walked.holds(sources.getFileID(expansion)))
        continue;
    }
    declarations.push_back(decl);
  }
  return declarations;
}

void limitTraversalToUserCode(clang::ASTContext &ast,
                              const std::vector<std::string> &walkedDirectories) {
  ast.setTraversalScope(userTopLevelDeclarations(ast, walkedDirectories));
}

void addToTraversalScope(clang::ASTContext &ast,
                         const std::vector<const clang::FunctionDecl *> &functions) {
  if (functions.empty())
    return;
  std::vector<clang::Decl *> scope = ast.getTraversalScope();
  for (const clang::FunctionDecl *function : functions)
    scope.push_back(const_cast<clang::FunctionDecl *>(function));
  ast.setTraversalScope(scope);
}

bool declaredInSystemHeader(const clang::Decl &decl, const clang::SourceManager &sources) {
  clang::SourceLocation location = decl.getLocation();
  return location.isValid() && sources.isInSystemHeader(sources.getExpansionLoc(location));
}

bool isLibraryFunction(const clang::FunctionDecl &function, const clang::SourceManager &sources) {
  return function.getBuiltinID() != 0 || declaredInSystemHeader(function, sources);
}

bool skipsBodyOf(const clang::Decl &decl, const clang::SourceManager &sources) {
  return declaredInSystemHeader(decl, sources);
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
