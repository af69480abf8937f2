#include "analyzer/analysis/OrderingScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

namespace streamlint {

std::string openInEveryTranslationUnit(const clang::FunctionDecl &function) {
  if (function.isMain())
    return "";
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&function)) {
    if (method->isVirtual())
      return "it is virtual";
    if (llvm::isa<clang::CXXConstructorDecl, clang::CXXDestructorDecl, clang::CXXConversionDecl>(
            method))
      return "it is called implicitly (a constructor, destructor or conversion)";
  }
  if (function.isOverloadedOperator())
    return "it is an operator, called implicitly";
  // C linkage alone is no reason: a C caller of the program is in the
  // compile database like a C++ one (a .c file's functions all have it),
  // and what C linkage exports to code outside it (a shared library, a
  // Python module) is opened by the library target or visibility rules.
  return "";
}

std::string openBecause(const clang::FunctionDecl &function, bool libraryTarget) {
  if (std::string reason = openInEveryTranslationUnit(function); !reason.empty())
    return reason;
  // Not open in every TU: another TU may define it without the attribute,
  // or for an executable.
  if (function.hasAttr<clang::DLLExportAttr>() ||
      (function.hasAttr<clang::VisibilityAttr>() &&
       function.getAttr<clang::VisibilityAttr>()->getVisibility() ==
           clang::VisibilityAttr::Default))
    return "it is exported";
  if (libraryTarget && function.isExternallyVisible())
    return "it has external linkage in a library target (built with -fPIC, -shared or a "
           "CMake *_EXPORTS definition)";
  return "";
}

bool mayBeCalledWithoutItsBody(const clang::FunctionDecl &function) {
  if (!function.isExternallyVisible())
    return false; // internal or no linkage: only this TU can call it
  // C's inline definitions (and GNU's extern inline) may stand beside an
  // external definition in another TU that other callers use.
  if (function.getASTContext().getLangOpts().CPlusPlus && function.isInlined() &&
      !function.hasAttr<clang::GNUInlineAttr>())
    return false;
  switch (function.getTemplateSpecializationKind()) {
  case clang::TSK_ImplicitInstantiation:
  case clang::TSK_ExplicitInstantiationDeclaration:
    return false; // instantiated in every TU that uses it
  default:
    return true;
  }
}

} // namespace streamlint
