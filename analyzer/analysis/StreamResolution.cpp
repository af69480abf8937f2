#include "analyzer/analysis/StreamResolution.h"

#include "analyzer/analysis/AnalysisScope.h"

#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace streamlint {
namespace {

namespace am = clang::ast_matchers;

// How deep a const variable's initializer or a parameter's flow is followed;
// real code that passes a stream through more levels is rare, and each level
// costs a body scan.
constexpr unsigned MaxDepth = 4;

/// The stream a constant expression denotes: 0/NULL/nullptr, the handles
/// cudaStreamLegacy (1) and cudaStreamPerThread (2), or Unknown.
StreamKind constantKind(const clang::Expr *expr, const clang::ASTContext &ast) {
  if (!expr || expr->isValueDependent() || expr->isTypeDependent())
    return StreamKind::Unknown;
  const clang::Expr *bare = expr->IgnoreParenCasts();
  if (llvm::isa<clang::CXXNullPtrLiteralExpr, clang::GNUNullExpr>(bare))
    return StreamKind::Null;
  if (!bare->getType()->isIntegralOrEnumerationType())
    return StreamKind::Unknown;
  clang::Expr::EvalResult value;
  if (!bare->EvaluateAsInt(value, ast))
    return StreamKind::Unknown;
  switch (value.Val.getInt().getExtValue()) {
  case 0:
    return StreamKind::Null;
  case 1:
    return StreamKind::Legacy;
  case 2:
    return StreamKind::PerThread;
  default:
    return StreamKind::Unknown;
  }
}

bool isConstantKind(StreamKind kind) {
  return kind == StreamKind::Null || kind == StreamKind::Legacy ||
         kind == StreamKind::PerThread;
}

const clang::FunctionDecl *owningFunction(const clang::VarDecl &variable) {
  return llvm::dyn_cast_or_null<clang::FunctionDecl>(
      variable.getParentFunctionOrMethod());
}

llvm::SmallVector<const clang::DeclRefExpr *, 8>
referencesTo(const clang::VarDecl &variable, const clang::Stmt &body,
             clang::ASTContext &ast) {
  llvm::SmallVector<const clang::DeclRefExpr *, 8> references;
  auto matches = am::match(
      am::findAll(am::declRefExpr(am::to(am::varDecl(am::equalsNode(&variable))))
                      .bind("ref")),
      body, ast);
  for (const auto &match : matches)
    references.push_back(match.getNodeAs<clang::DeclRefExpr>("ref"));
  return references;
}

/// The nearest parent of `expr` that is not a ParenExpr; null at the top.
const clang::Stmt *parentSkippingParens(const clang::Stmt &stmt,
                                        clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  while (!parents.empty()) {
    const auto *parent = parents[0].get<clang::Stmt>();
    if (!parent || !llvm::isa<clang::ParenExpr>(parent))
      return parent;
    parents = ast.getParents(*parent);
  }
  return nullptr;
}

/// For `lhs = rhs` where lhs (without parens) is `target`: rhs; else null.
const clang::Expr *assignedValue(const clang::Stmt *parent,
                                 const clang::Expr &target) {
  const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent);
  if (!assign || assign->getOpcode() != clang::BO_Assign ||
      assign->getLHS()->IgnoreParens() != &target)
    return nullptr;
  return assign->getRHS();
}

bool isRead(const clang::Stmt *parent) {
  const auto *cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parent);
  return cast && cast->getCastKind() == clang::CK_LValueToRValue;
}

/// The constant a local stream variable always holds: its initializer is a
/// stream constant, every assignment stores the same one, and it is otherwise
/// only read (no &s, no reference binding). Unknown otherwise.
StreamKind onlyEverConstant(const clang::VarDecl &variable) {
  const clang::FunctionDecl *owner = owningFunction(variable);
  if (!owner || !owner->hasBody() || !variable.hasLocalStorage() ||
      llvm::isa<clang::ParmVarDecl>(variable) ||
      variable.getType()->isReferenceType() ||
      variable.getType().isVolatileQualified())
    return StreamKind::Unknown;
  clang::ASTContext &ast = owner->getASTContext();
  StreamKind kind = constantKind(variable.getInit(), ast);
  if (!isConstantKind(kind))
    return StreamKind::Unknown;
  for (const clang::DeclRefExpr *reference :
       referencesTo(variable, *owner->getBody(), ast)) {
    const clang::Stmt *parent = parentSkippingParens(*reference, ast);
    if (isRead(parent))
      continue;
    const clang::Expr *value = assignedValue(parent, *reference);
    if (!value || constantKind(value, ast) != kind)
      return StreamKind::Unknown;
  }
  return kind;
}

StreamClassification classify(const clang::Expr *argument,
                               const clang::ASTContext &ast,
                               const clang::FunctionDecl *function,
                               unsigned depth) {
  if (!argument || depth > MaxDepth)
    return {};
  if (const auto *fallback = llvm::dyn_cast<clang::CXXDefaultArgExpr>(
          argument->IgnoreParenImpCasts())) {
    StreamClassification inner =
        classify(fallback->getExpr(), ast, nullptr, depth + 1);
    if (inner.kind == StreamKind::Null)
      inner.kind = StreamKind::Omitted;
    return inner;
  }
  if (argument->isValueDependent() || argument->isTypeDependent())
    return {};
  // `cudaStream_t stream = {}` (CCCL's DeviceFor, DeviceTransform): a
  // value-initialized pointer, null.
  const clang::Expr *initialized = argument->IgnoreParenImpCasts();
  if (const auto *list = llvm::dyn_cast<clang::InitListExpr>(initialized))
    if (list->getNumInits() == 0 || (list->getNumInits() == 1 &&
                                     llvm::isa<clang::ImplicitValueInitExpr>(list->getInit(0))))
      return {StreamKind::Null, nullptr};
  if (llvm::isa<clang::ImplicitValueInitExpr>(initialized) ||
      llvm::isa<clang::CXXScalarValueInitExpr>(initialized))
    return {StreamKind::Null, nullptr};
  StreamKind constant = constantKind(argument, ast);
  if (constant != StreamKind::Unknown)
    return {constant, nullptr};
  const clang::Expr *bare = argument->IgnoreParenCasts();
  if (const auto *reference = llvm::dyn_cast<clang::DeclRefExpr>(bare)) {
    const auto *variable = llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
    if (!variable)
      return {};
    if (llvm::isa<clang::ParmVarDecl>(variable))
      return {StreamKind::Named, variable};
    clang::QualType type = variable->getType();
    if (type.isConstQualified() && !type.isVolatileQualified() &&
        !type->isReferenceType() && variable->getInit()) {
      StreamClassification init =
          classify(variable->getInit(), ast, nullptr, depth + 1);
      if (isConstantKind(init.kind))
        return {init.kind, variable};
      return {StreamKind::Named, variable};
    }
    if (function && variable->hasLocalStorage()) {
      StreamKind kind = onlyEverConstant(*variable);
      if (kind != StreamKind::Unknown)
        return {kind, variable};
    }
    return {StreamKind::Named, variable};
  }
  if (llvm::isa<clang::MemberExpr, clang::CallExpr, clang::ArraySubscriptExpr>(bare))
    return {StreamKind::Named, nullptr};
  return {};
}

/// Whether `stmt` lies inside `ancestor` in the AST.
bool isInside(const clang::Stmt &stmt, const clang::Stmt &ancestor,
              clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  while (!parents.empty()) {
    const auto *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      return false;
    if (parent == &ancestor)
      return true;
    parents = ast.getParents(*parent);
  }
  return false;
}

/// A local variable is visible at `site` when `site` is inside the statement
/// that holds its declaration, and ready when it was initialized or
/// referred to (e.g. `cudaStreamCreate(&s)`) before `site`.
bool visibleAndReady(const clang::VarDecl &variable, const clang::Stmt &site,
                     const clang::FunctionDecl &function, clang::ASTContext &ast) {
  if (const auto *parameter = llvm::dyn_cast<clang::ParmVarDecl>(&variable))
    return llvm::is_contained(function.parameters(), parameter);
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::SourceLocation siteBegin = sm.getExpansionLoc(site.getBeginLoc());
  auto before = [&](clang::SourceLocation location) {
    return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(location), siteBegin);
  };
  const clang::Stmt *scope = nullptr;
  for (const clang::DynTypedNode &parent : ast.getParents(variable))
    if (const auto *declaration = parent.get<clang::DeclStmt>())
      scope = parentSkippingParens(*declaration, ast);
  if (!scope || !isInside(site, *scope, ast) || !before(variable.getLocation()))
    return false;
  if (variable.getInit() && !isConstantKind(constantKind(variable.getInit(), ast)))
    return true;
  for (const clang::DeclRefExpr *reference :
       referencesTo(variable, *function.getBody(), ast))
    if (before(reference->getBeginLoc()))
      return true;
  return false;
}

bool isStreamConsumer(const clang::CallExpr &call, const clang::ASTContext &ast) {
  if (llvm::isa<clang::CUDAKernelCallExpr>(call))
    return true;
  // A library's function, judged as the call graph judges it (a builtin
  // is the library's wherever clang declared it).
  const clang::FunctionDecl *callee = call.getDirectCallee();
  return callee && isLibraryFunction(*callee, ast.getSourceManager());
}

const clang::CallExpr *streamUse(const clang::FunctionDecl &function,
                                 unsigned index, unsigned depth,
                                 llvm::SmallPtrSetImpl<const clang::FunctionDecl *> &seen) {
  const clang::FunctionDecl *definition = function.getDefinition();
  if (!definition || !definition->hasBody() || depth > MaxDepth ||
      index >= definition->getNumParams() || !seen.insert(definition).second)
    return nullptr;
  const clang::ParmVarDecl *parameter = definition->getParamDecl(index);
  clang::ASTContext &ast = definition->getASTContext();
  // `if (!s) s = mine;` or `pick(&s)`: the default is not what gets used.
  for (const clang::DeclRefExpr *reference :
       referencesTo(*parameter, *definition->getBody(), ast))
    if (!isRead(parentSkippingParens(*reference, ast)))
      return nullptr;
  auto calls = am::match(am::findAll(am::callExpr().bind("call")),
                         *definition->getBody(), ast);
  for (const auto &match : calls) {
    const auto *call = match.getNodeAs<clang::CallExpr>("call");
    std::optional<StreamArgumentSite> site = streamArgumentOf(*call);
    if (!site)
      continue;
    StreamClassification stream = classify(site->argument, ast, definition, 0);
    if (stream.kind != StreamKind::Named || stream.variable != parameter)
      continue;
    if (isStreamConsumer(*call, ast))
      return call;
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      if (streamUse(*callee, site->index, depth + 1, seen))
        return call;
  }
  return nullptr;
}

} // namespace

const char *streamKindName(StreamKind kind) {
  switch (kind) {
  case StreamKind::Omitted: return "omitted";
  case StreamKind::Null: return "null";
  case StreamKind::Legacy: return "legacy";
  case StreamKind::PerThread: return "per-thread";
  case StreamKind::Named: return "named";
  case StreamKind::Unknown: return "unknown";
  }
  return "unknown";
}

bool isLegacyStream(StreamKind kind, bool perThreadDefaultStream) {
  if (kind == StreamKind::Legacy)
    return true;
  return !perThreadDefaultStream &&
         (kind == StreamKind::Omitted || kind == StreamKind::Null);
}

bool isStreamType(clang::QualType type) {
  if (type.isNull())
    return false;
  for (clang::QualType sugar = type;;) {
    if (const auto *typedefType = sugar->getAs<clang::TypedefType>()) {
      llvm::StringRef name = typedefType->getDecl()->getName();
      if (name == "cudaStream_t" || name == "CUstream")
        return true;
      sugar = typedefType->getDecl()->getUnderlyingType();
      continue;
    }
    break;
  }
  const auto *pointer = type.getCanonicalType()->getAs<clang::PointerType>();
  if (!pointer)
    return false;
  const auto *record = pointer->getPointeeType()->getAsRecordDecl();
  return record && record->getName() == "CUstream_st";
}

StreamClassification classifyStreamArgument(const clang::Expr *argument,
                                            const clang::ASTContext &ast,
                                            const clang::FunctionDecl *function) {
  return classify(argument, ast, function, 0);
}

std::optional<StreamArgumentSite> streamArgumentOf(const clang::CallExpr &call) {
  if (const auto *launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(&call)) {
    const clang::CallExpr *config = launch->getConfig();
    if (!config || config->getNumArgs() < 4)
      return std::nullopt;
    return StreamArgumentSite{config->getArg(3), 3, true};
  }
  // A member operator's first argument is the object: indices would be off.
  if (llvm::isa<clang::CXXOperatorCallExpr>(call))
    return std::nullopt;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee)
    return std::nullopt;
  std::optional<unsigned> found;
  for (unsigned i = 0; i < callee->getNumParams(); ++i) {
    if (!isStreamType(callee->getParamDecl(i)->getType()))
      continue;
    if (found)
      return std::nullopt;
    found = i;
  }
  if (!found || *found >= call.getNumArgs())
    return std::nullopt;
  return StreamArgumentSite{call.getArg(*found), *found, false};
}

std::string apiNameAsWritten(const clang::FunctionDecl &callee) {
  if (!callee.getIdentifier())
    return "";
  return std::string(api::parseApiName(callee.getName()).asWritten);
}

std::optional<StreamInScope> uniqueStreamInScope(const clang::FunctionDecl &function,
                                                 const clang::Stmt &site,
                                                 clang::ASTContext &ast) {
  if (!function.hasBody())
    return std::nullopt;
  llvm::MapVector<const clang::VarDecl *, unsigned> uses;
  auto calls = am::match(am::findAll(am::callExpr().bind("call")),
                         *function.getBody(), ast);
  for (const auto &match : calls) {
    std::optional<StreamArgumentSite> argument =
        streamArgumentOf(*match.getNodeAs<clang::CallExpr>("call"));
    if (!argument)
      continue;
    StreamClassification stream = classify(argument->argument, ast, &function, 0);
    if (stream.kind != StreamKind::Named || !stream.variable ||
        owningFunction(*stream.variable) != &function ||
        stream.variable->getType()->isArrayType())
      continue;
    ++uses[stream.variable];
  }
  if (uses.size() != 1)
    return std::nullopt;
  const clang::VarDecl *variable = uses.front().first;
  if (variable->getName().empty() ||
      !visibleAndReady(*variable, site, function, ast))
    return std::nullopt;
  return StreamInScope{variable, variable->getName().str(), uses.front().second};
}

const clang::CallExpr *streamUseOfParameter(const clang::FunctionDecl &function,
                                            unsigned parameterIndex) {
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> seen;
  return streamUse(function, parameterIndex, 0, seen);
}

StreamClassification classifyLaunchConfigStream(const clang::Expr *configArgument,
                                                const clang::FunctionDecl &function) {
  const auto *address = llvm::dyn_cast_or_null<clang::UnaryOperator>(
      configArgument ? configArgument->IgnoreParenImpCasts() : nullptr);
  if (!address || address->getOpcode() != clang::UO_AddrOf)
    return {};
  const auto *reference =
      llvm::dyn_cast<clang::DeclRefExpr>(address->getSubExpr()->IgnoreParens());
  const auto *config =
      reference ? llvm::dyn_cast<clang::VarDecl>(reference->getDecl()) : nullptr;
  const clang::RecordDecl *record =
      config ? config->getType()->getAsRecordDecl() : nullptr;
  const clang::FunctionDecl *owner = config ? owningFunction(*config) : nullptr;
  if (!record || !owner || !owner->hasBody() || !config->hasLocalStorage())
    return {};
  clang::ASTContext &ast = function.getASTContext();
  const clang::FieldDecl *streamField = nullptr;
  for (const clang::FieldDecl *field : record->fields())
    if (field->getName() == "stream")
      streamField = field;
  if (!streamField)
    return {};

  llvm::SmallVector<const clang::Expr *, 2> stores;
  for (const clang::DeclRefExpr *use : referencesTo(*config, *owner->getBody(), ast)) {
    const clang::Stmt *parent = parentSkippingParens(*use, ast);
    if (const auto *member = llvm::dyn_cast_or_null<clang::MemberExpr>(parent)) {
      if (member->getMemberDecl() != streamField)
        continue; // other fields do not change the stream
      const clang::Stmt *grandparent = parentSkippingParens(*member, ast);
      if (isRead(grandparent))
        continue;
      const clang::Expr *value = assignedValue(grandparent, *member);
      if (!value)
        return {};
      stores.push_back(value);
      continue;
    }
    // &config may only reach the launch itself.
    const auto *taken = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent);
    if (!taken || taken->getOpcode() != clang::UO_AddrOf)
      return {};
    const clang::Stmt *user = parentSkippingParens(*taken, ast);
    while (llvm::isa_and_nonnull<clang::ImplicitCastExpr>(user))
      user = parentSkippingParens(*user, ast);
    const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(user);
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    const api::ApiInfo *info = callee ? api::findApi(apiNameAsWritten(*callee)) : nullptr;
    if (!info || info->stream != api::StreamDefault::InConfig)
      return {};
  }

  if (stores.empty()) {
    const auto *init = llvm::dyn_cast_or_null<clang::InitListExpr>(
        config->getInit() ? config->getInit()->IgnoreImplicit() : nullptr);
    unsigned index = streamField->getFieldIndex();
    if (!init || index >= init->getNumInits())
      return {};
    const clang::Expr *value = init->getInit(index);
    if (llvm::isa<clang::ImplicitValueInitExpr>(value))
      return {StreamKind::Null, config};
    StreamClassification stream = classify(value, ast, owner, 0);
    return stream;
  }
  StreamClassification first = classify(stores.front(), ast, owner, 0);
  if (stores.size() == 1)
    return first;
  for (const clang::Expr *store : stores)
    if (!isConstantKind(first.kind) || classify(store, ast, owner, 0).kind != first.kind)
      return {};
  return first;
}

} // namespace streamlint
