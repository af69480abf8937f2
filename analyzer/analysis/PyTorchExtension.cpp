#include "analyzer/analysis/PyTorchExtension.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

namespace streamlint {
namespace {

/// The namespace or function `name` declared directly in `context`.
const clang::DeclContext *namespaceIn(const clang::ASTContext &ast,
                                      const clang::DeclContext *context,
                                      llvm::StringRef name) {
  auto identifier = ast.Idents.find(name);
  if (!context || identifier == ast.Idents.end())
    return nullptr;
  for (const clang::NamedDecl *found : context->lookup(identifier->getValue()))
    if (const auto *space = llvm::dyn_cast<clang::NamespaceDecl>(found))
      return space;
  return nullptr;
}

bool declaresCurrentStream(const clang::ASTContext &ast, llvm::StringRef top) {
  const clang::DeclContext *cuda =
      namespaceIn(ast, namespaceIn(ast, ast.getTranslationUnitDecl(), top), "cuda");
  auto identifier = ast.Idents.find("getCurrentCUDAStream");
  return cuda && identifier != ast.Idents.end() &&
         !cuda->lookup(identifier->getValue()).empty();
}

} // namespace

bool isPyTorchExtension(const clang::ASTContext &ast) {
  return declaresCurrentStream(ast, "at") || declaresCurrentStream(ast, "c10");
}

} // namespace streamlint
