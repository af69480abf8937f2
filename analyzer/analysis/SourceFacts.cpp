#include "analyzer/analysis/SourceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"

namespace streamlint {
namespace {

bool macroDefined(const clang::ASTContext &ast, llvm::StringRef name) {
  auto found = ast.Idents.find(name);
  return found != ast.Idents.end() && found->getValue()->hasMacroDefinition();
}

} // namespace

bool isDeviceOnly(const clang::FunctionDecl *function) {
  return function && (function->hasAttr<clang::CUDAGlobalAttr>() ||
                      (function->hasAttr<clang::CUDADeviceAttr>() &&
                       !function->hasAttr<clang::CUDAHostAttr>()));
}

bool isPerThreadDefaultStreamBuild(TranslationUnitContext &context) {
  return context.info().perThreadDefaultStream ||
         macroDefined(context.ast(), "CUDA_API_PER_THREAD_DEFAULT_STREAM") ||
         macroDefined(context.ast(), "__CUDART_API_PER_THREAD_DEFAULT_STREAM");
}

bool writtenInFile(clang::SourceLocation location, const clang::SourceManager &sm) {
  while (location.isMacroID()) {
    if (!sm.isMacroArgExpansion(location))
      return false;
    location = sm.getImmediateSpellingLoc(location);
  }
  return location.isValid();
}

bool ReportOnce::first(const clang::Stmt &site, const clang::SourceManager &sm) {
  clang::SourceLocation begin = site.getBeginLoc();
  return seen_
      .insert({sm.getExpansionLoc(begin).getRawEncoding(),
               sm.getSpellingLoc(begin).getRawEncoding()})
      .second;
}

} // namespace streamlint
