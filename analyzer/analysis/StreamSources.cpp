// Where stream values come from, in the terms of the whole-program
// ordering summary (OrderingSummary.h): keys that name a function, global
// or member alike in every TU, and the source of a stream argument or write.
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/StreamResolution.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"

namespace streamlint {

using namespace ordering;

std::string orderingKey(const clang::Decl &decl) {
  const clang::Decl *pattern = &decl;
  if (const auto *function = llvm::dyn_cast<clang::FunctionDecl>(&decl))
    while (const clang::FunctionDecl *next = function->getTemplateInstantiationPattern()) {
      if (next == function)
        break;
      function = next;
      pattern = next;
    }
  llvm::SmallString<128> usr;
  if (clang::index::generateUSRForDecl(pattern->getCanonicalDecl(), usr))
    return "";
  return std::string(usr);
}

SourcePoint definitionPlace(const clang::FunctionDecl &function,
                            const clang::SourceManager &sources) {
  const clang::FunctionDecl *pattern = &function;
  while (const clang::FunctionDecl *next = pattern->getTemplateInstantiationPattern()) {
    if (next == pattern)
      break;
    pattern = next;
  }
  if (const clang::FunctionDecl *definition = pattern->getDefinition())
    pattern = definition;
  clang::SourceLocation location = sources.getExpansionLoc(pattern->getLocation());
  clang::OptionalFileEntryRef file = sources.getFileEntryRefForID(sources.getFileID(location));
  if (location.isInvalid() || !file)
    return {};
  llvm::StringRef path = file->getFileEntry().tryGetRealPathName();
  if (path.empty())
    path = file->getName();
  return {path.str(), sources.getExpansionLineNumber(location), 0};
}

Blocking toBlocking(StreamBlocking blocking) {
  switch (blocking) {
  case StreamBlocking::Blocking: return Blocking::Blocking;
  case StreamBlocking::NonBlocking: return Blocking::NonBlocking;
  case StreamBlocking::Unknown: return Blocking::Unknown;
  }
  return Blocking::Unknown;
}

/// The global or member stream `expr` names (through `&` and parentheses).
const clang::Expr *withoutAddressOf(const clang::Expr *expr) {
  if (!expr)
    return nullptr;
  expr = expr->IgnoreParenImpCasts();
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(expr))
    if (unary->getOpcode() == clang::UO_AddrOf)
      expr = unary->getSubExpr()->IgnoreParenImpCasts();
  return expr;
}

const clang::ValueDecl *writtenStream(const clang::Expr *expr) {
  expr = withoutAddressOf(expr);
  if (!expr)
    return nullptr;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      return var->hasGlobalStorage() && isStreamType(var->getType()) ? var : nullptr;
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(expr))
    if (const auto *field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl()))
      return isStreamType(field->getType()) ? field : nullptr;
  return nullptr;
}

/// Where a stream value at a call or write in `function` comes from.
StreamSource sourceOf(const clang::Expr *value, const clang::FunctionDecl &function,
                      clang::ASTContext &ast) {
  StreamSource source;
  source.blocking = Blocking::Unknown;
  if (!value)
    return source;
  StreamClassification stream = classifyStreamArgument(value, ast, &function);
  if (const clang::ValueDecl *global = writtenStream(value)) {
    source.kind = StreamSource::Variable;
    source.variable = orderingKey(*global);
    source.spelled = global->getNameAsString();
    return source;
  }
  switch (stream.kind) {
  case StreamKind::Omitted:
  case StreamKind::Null:
  case StreamKind::Legacy:
  case StreamKind::PerThread:
    // The legacy and per-thread streams synchronize with the legacy stream.
    // "0" marks the legacy stream itself (OrderingSummary: a fix moving
    // work to a parameter every caller passes 0 for moves nothing).
    source.blocking = Blocking::Blocking;
    source.spelled = stream.kind == StreamKind::PerThread ? "cudaStreamPerThread" : "0";
    return source;
  case StreamKind::Named:
    if (const clang::VarDecl *var = stream.variable) {
      source.spelled = var->getNameAsString();
      if (const auto *parameter = llvm::dyn_cast<clang::ParmVarDecl>(var)) {
        source.kind = StreamSource::CallerParameter;
        source.parameter = int(parameter->getFunctionScopeIndex());
      } else if (var->isLocalVarDecl()) {
        source.blocking = toBlocking(blockingOf(var, function, ast));
      }
    }
    return source;
  case StreamKind::Unknown:
    return source;
  }
  return source;
}

StreamBlocking fromBlocking(Blocking blocking) {
  switch (blocking) {
  case Blocking::Blocking: return StreamBlocking::Blocking;
  case Blocking::NonBlocking: return StreamBlocking::NonBlocking;
  case Blocking::Unknown: return StreamBlocking::Unknown;
  }
  return StreamBlocking::Unknown;
}

} // namespace streamlint
