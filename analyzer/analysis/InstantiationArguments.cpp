#include "analyzer/analysis/InstantiationArguments.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TemplateBase.h"
#include "clang/AST/Type.h"

namespace streamlint {
namespace {

/// Deeper than this, an argument is taken to name what is asked for.
constexpr unsigned kMaxDepth = 12;

class ArgumentSearch {
public:
  explicit ArgumentSearch(llvm::function_ref<bool(const clang::Decl &)> accepts)
      : accepts_(accepts) {}

  bool arguments(llvm::ArrayRef<clang::TemplateArgument> list, unsigned depth) {
    for (const clang::TemplateArgument &argument : list)
      if (this->argument(argument, depth))
        return true;
    return false;
  }

  /// The specializations `context` is in, from the innermost out.
  bool enclosing(const clang::DeclContext *context, unsigned depth) {
    for (; context; context = context->getParent()) {
      const auto *decl = llvm::dyn_cast<clang::Decl>(context);
      if (decl && accepts_(*decl))
        return true;
      if (const auto *specialization =
              llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(context))
        if (arguments(specialization->getTemplateArgs().asArray(), depth))
          return true;
    }
    return false;
  }

private:
  bool argument(const clang::TemplateArgument &argument, unsigned depth) {
    if (depth > kMaxDepth)
      return true;
    switch (argument.getKind()) {
    case clang::TemplateArgument::Null:
    case clang::TemplateArgument::Integral:
    case clang::TemplateArgument::NullPtr:
      return false;
    case clang::TemplateArgument::Type:
      return type(argument.getAsType(), depth + 1);
    case clang::TemplateArgument::Declaration:
      return accepts_(*argument.getAsDecl()) || type(argument.getParamTypeForDecl(), depth + 1);
    case clang::TemplateArgument::Template:
    case clang::TemplateArgument::TemplateExpansion: {
      const clang::TemplateDecl *templated =
          argument.getAsTemplateOrTemplatePattern().getAsTemplateDecl();
      return !templated || accepts_(*templated);
    }
    case clang::TemplateArgument::Pack:
      return arguments(argument.pack_elements(), depth + 1);
    case clang::TemplateArgument::Expression:       // not in an instantiation
    case clang::TemplateArgument::StructuralValue:  // may point anywhere
      return true;
    }
    return true;
  }

  bool type(clang::QualType qualified, unsigned depth) {
    if (depth > kMaxDepth || qualified.isNull())
      return depth > kMaxDepth;
    const clang::Type *type = qualified.getCanonicalType().getTypePtr();
    if (const auto *pointer = type->getAs<clang::PointerType>())
      return this->type(pointer->getPointeeType(), depth + 1);
    if (const auto *reference = type->getAs<clang::ReferenceType>())
      return this->type(reference->getPointeeType(), depth + 1);
    if (const auto *member = type->getAs<clang::MemberPointerType>()) {
      if (this->type(member->getPointeeType(), depth + 1))
        return true;
      const clang::CXXRecordDecl *record = member->getMostRecentCXXRecordDecl();
      return !record || accepts_(*record) || enclosing(record, depth + 1);
    }
    if (const clang::ArrayType *array = type->getAsArrayTypeUnsafe())
      return this->type(array->getElementType(), depth + 1);
    if (const auto *function = type->getAs<clang::FunctionProtoType>()) {
      if (this->type(function->getReturnType(), depth + 1))
        return true;
      for (clang::QualType parameter : function->getParamTypes())
        if (this->type(parameter, depth + 1))
          return true;
      return false;
    }
    if (const clang::TagDecl *tag = type->getAsTagDecl()) {
      if (accepts_(*tag))
        return true;
      // Its own arguments (std::vector<UserType>) and those around it
      // (std::vector<UserType>::iterator).
      return enclosing(tag, depth + 1);
    }
    return false;
  }

  llvm::function_ref<bool(const clang::Decl &)> accepts_;
};

} // namespace

bool instantiatedWith(const clang::FunctionDecl &function,
                      llvm::function_ref<bool(const clang::Decl &)> accepts) {
  ArgumentSearch search(accepts);
  if (const clang::TemplateArgumentList *arguments = function.getTemplateSpecializationArgs())
    if (search.arguments(arguments->asArray(), 0))
      return true;
  return search.enclosing(function.getDeclContext(), 0);
}

} // namespace streamlint
