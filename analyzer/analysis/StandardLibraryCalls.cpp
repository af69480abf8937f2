#include "analyzer/analysis/StandardLibraryCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace streamlint {
namespace {

bool declaredInSystemHeader(const clang::Decl &decl, const clang::SourceManager &sources) {
  clang::SourceLocation location = decl.getLocation();
  return location.isValid() && sources.isInSystemHeader(sources.getExpansionLoc(location));
}

/// Inside namespace std (libc++'s std::__1 included) or libstdc++'s
/// __gnu_cxx (its iterators' operators), at any depth.
bool inStandardNamespace(const clang::DeclContext *context) {
  const clang::NamespaceDecl *outermost = nullptr;
  for (; context; context = context->getParent())
    if (const auto *space = llvm::dyn_cast<clang::NamespaceDecl>(context))
      outermost = space;
  return outermost && outermost->getIdentifier() &&
         (outermost->getName() == "std" || outermost->getName() == "__gnu_cxx");
}

/// A header of the C library (glibc's, musl's): the standard C headers, the
/// POSIX time and unistd headers, and glibc's internal bits/ headers that
/// math.h and string.h include (ceil is declared in bits/mathcalls.h).
bool isCLibraryHeader(llvm::StringRef path) {
  if (path.contains("/bits/"))
    return !path.contains("cuda") && !path.contains("/c++/");
  return llvm::StringSwitch<bool>(llvm::sys::path::filename(path))
      .Cases({"assert.h", "ctype.h", "errno.h", "fenv.h", "inttypes.h", "locale.h", "math.h",
              "setjmp.h", "signal.h", "stdio.h", "stdlib.h", "string.h", "strings.h", "time.h",
              "uchar.h", "wchar.h", "wctype.h", "unistd.h"},
             true)
      .Default(false);
}

bool declaredInCLibraryHeader(const clang::FunctionDecl &function,
                              const clang::SourceManager &sources) {
  for (const clang::FunctionDecl *decl : function.redecls()) {
    if (!declaredInSystemHeader(*decl, sources))
      continue;
    clang::SourceLocation spelled = sources.getSpellingLoc(decl->getLocation());
    if (isCLibraryHeader(sources.getFilename(spelled)))
      return true;
  }
  return false;
}

bool isLibraryOnlyArgument(const clang::TemplateArgument &argument,
                           const clang::SourceManager &sources) {
  switch (argument.getKind()) {
  case clang::TemplateArgument::Type:
    return isLibraryOnlyType(argument.getAsType(), sources);
  case clang::TemplateArgument::Integral:
  case clang::TemplateArgument::NullPtr:
  case clang::TemplateArgument::Null:
    return true;
  case clang::TemplateArgument::Pack:
    for (const clang::TemplateArgument &element : argument.pack_elements())
      if (!isLibraryOnlyArgument(element, sources))
        return false;
    return true;
  case clang::TemplateArgument::Template: {
    const clang::TemplateDecl *decl = argument.getAsTemplate().getAsTemplateDecl();
    return decl && inStandardNamespace(decl->getDeclContext());
  }
  default: // a declaration (function pointer), an expression
    return false;
  }
}

/// A standard library class whose template arguments, and those of the
/// classes it is nested in, are library-only.
bool isLibraryOnlyRecord(const clang::CXXRecordDecl &record, const clang::SourceManager &sources) {
  if (record.isLambda() || !inStandardNamespace(record.getDeclContext()) ||
      !declaredInSystemHeader(record, sources))
    return false;
  for (const clang::DeclContext *context = &record; context && llvm::isa<clang::CXXRecordDecl>(context);
       context = context->getParent())
    if (const auto *specialization =
            llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(context))
      for (const clang::TemplateArgument &argument : specialization->getTemplateArgs().asArray())
        if (!isLibraryOnlyArgument(argument, sources))
          return false;
  return true;
}

} // namespace

bool isStandardLibraryFunction(const clang::FunctionDecl &function,
                               const clang::SourceManager &sources) {
  if (!declaredInSystemHeader(function, sources))
    return false;
  if (inStandardNamespace(function.getDeclContext()))
    return true;
  return function.isExternC() && function.getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         declaredInCLibraryHeader(function, sources);
}

bool isLibraryOnlyType(clang::QualType type, const clang::SourceManager &sources) {
  if (type.isNull())
    return false;
  type = type.getNonReferenceType().getCanonicalType();
  const clang::Type *bare = type.getTypePtr();
  if (bare->isDependentType())
    return false;
  if (bare->isBuiltinType() || bare->isEnumeralType())
    return true;
  if (const auto *pointer = bare->getAs<clang::PointerType>())
    return !pointer->getPointeeType()->isFunctionType() &&
           isLibraryOnlyType(pointer->getPointeeType(), sources);
  if (const auto *array = llvm::dyn_cast<clang::ArrayType>(bare))
    return isLibraryOnlyType(array->getElementType(), sources);
  if (const clang::CXXRecordDecl *record = bare->getAsCXXRecordDecl())
    return isLibraryOnlyRecord(*record, sources);
  return false; // functions, member pointers, blocks, the program's C structs
}

namespace {

bool valueRecord(const clang::CXXRecordDecl &record, int depth) {
  if (!record.hasDefinition() || depth > 8)
    return false;
  const clang::CXXRecordDecl *definition = record.getDefinition();
  for (const clang::CXXBaseSpecifier &base : definition->bases()) {
    const clang::CXXRecordDecl *baseRecord = base.getType()->getAsCXXRecordDecl();
    if (!baseRecord || !valueRecord(*baseRecord, depth + 1))
      return false;
  }
  for (const clang::FieldDecl *field : definition->fields()) {
    clang::QualType type = field->getType().getCanonicalType();
    while (const auto *array = llvm::dyn_cast<clang::ArrayType>(type.getTypePtr()))
      type = array->getElementType().getCanonicalType();
    if (type->isBuiltinType() || type->isEnumeralType())
      continue;
    const clang::CXXRecordDecl *inner = type->getAsCXXRecordDecl();
    if (!inner || !valueRecord(*inner, depth + 1))
      return false;
  }
  return true;
}

bool standardNamed(const clang::CXXRecordDecl &record, llvm::StringRef name) {
  return record.getIdentifier() && record.getName() == name &&
         inStandardNamespace(record.getDeclContext());
}

} // namespace

bool reachesOnlyLibraryMemory(clang::QualType type, const clang::SourceManager &sources) {
  type = type.getNonReferenceType().getCanonicalType();
  if (type->isBuiltinType() || type->isEnumeralType())
    return true;
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return false;
  if (!isLibraryOnlyRecord(*record, sources))
    return false;
  if (valueRecord(*record, 0) || standardNamed(*record, "basic_string"))
    return true;
  bool stream = false;
  record->getDefinition()->forallBases([&](const clang::CXXRecordDecl *base) {
    stream |= standardNamed(*base, "ios_base");
    return true;
  });
  return stream;
}

bool namesStandardFunction(const clang::Expr &argument, const clang::SourceManager &sources) {
  const clang::Expr *bare = argument.IgnoreParenImpCasts();
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(bare))
    if (unary->getOpcode() == clang::UO_AddrOf)
      bare = unary->getSubExpr()->IgnoreParenImpCasts();
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bare);
  const auto *function = ref ? llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl()) : nullptr;
  if (!function || !isStandardLibraryFunction(*function, sources))
    return false;
  if (const clang::TemplateArgumentList *arguments = function->getTemplateSpecializationArgs())
    for (const clang::TemplateArgument &templateArgument : arguments->asArray())
      if (!isLibraryOnlyArgument(templateArgument, sources))
        return false;
  return true;
}

std::vector<const clang::FunctionDecl *>
programCallables(const clang::CallExpr &call, const clang::SourceManager &sources,
                 bool &unresolved) {
  std::vector<const clang::FunctionDecl *> callables;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  // `nullptr`, `NULL`, `0` for a function pointer: no code handed over.
  auto isNull = [&](const clang::Expr &argument) {
    return callee && argument.isNullPointerConstant(callee->getASTContext(),
                                                    clang::Expr::NPC_ValueDependentIsNotNull);
  };
  for (const clang::Expr *argument : argumentsWithObject(call)) {
    clang::QualType type = argument->getType().getNonReferenceType().getCanonicalType();
    if (type->isPointerType())
      type = type->getPointeeType().getCanonicalType();
    const clang::Expr *bare = argument->IgnoreParenImpCasts();
    if (type->isFunctionType() || type->isMemberPointerType()) {
      if (namesStandardFunction(*argument, sources) || isNull(*argument))
        continue; // glob(pattern, 0, NULL, &found): no function given
      if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(bare))
        if (unary->getOpcode() == clang::UO_AddrOf)
          bare = unary->getSubExpr()->IgnoreParenImpCasts();
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bare);
      const auto *function = ref ? llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl()) : nullptr;
      if (function)
        callables.push_back(function);
      else
        unresolved = true; // a function pointer variable: any function
      continue;
    }
    const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
    if (!record || !record->hasDefinition())
      continue;
    record = record->getDefinition();
    if (record->isLambda()) {
      if (record->isGenericLambda())
        unresolved = true;
      else
        callables.push_back(record->getLambdaCallOperator());
      continue;
    }
    std::vector<const clang::CXXMethodDecl *> operators;
    auto collect = [&](const clang::CXXRecordDecl *candidate) {
      for (const clang::CXXMethodDecl *method : candidate->methods())
        if (method->getOverloadedOperator() == clang::OO_Call)
          operators.push_back(method);
      return true;
    };
    collect(record);
    record->forallBases(collect);
    if (operators.empty() || isLibraryOnlyRecord(*record, sources))
      continue;
    if (inStandardNamespace(record->getDeclContext()))
      unresolved = true; // std::function, std::bind: whatever they hold
    else
      callables.insert(callables.end(), operators.begin(), operators.end());
  }
  return callables;
}

bool passesProgramCallable(const clang::CallExpr &call, const clang::SourceManager &sources) {
  bool unresolved = false;
  return !programCallables(call, sources, unresolved).empty() || unresolved;
}

std::vector<const clang::Expr *> argumentsWithObject(const clang::CallExpr &call) {
  std::vector<const clang::Expr *> arguments;
  if (const auto *member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
    if (const clang::Expr *object = member->getImplicitObjectArgument())
      arguments.push_back(object);
  for (const clang::Expr *argument : call.arguments())
    arguments.push_back(argument);
  return arguments;
}

bool isSelfContainedLibraryCall(const clang::CallExpr &call, const clang::SourceManager &sources) {
  if (llvm::isa<clang::CUDAKernelCallExpr>(call))
    return false;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || !isStandardLibraryFunction(*callee, sources))
    return false;
  if (const clang::TemplateArgumentList *arguments = callee->getTemplateSpecializationArgs())
    for (const clang::TemplateArgument &argument : arguments->asArray())
      if (!isLibraryOnlyArgument(argument, sources))
        return false;
  for (const clang::Expr *argument : argumentsWithObject(call))
    if (!isLibraryOnlyType(argument->getType(), sources) &&
        !namesStandardFunction(*argument, sources))
      return false;
  return true;
}

} // namespace streamlint
