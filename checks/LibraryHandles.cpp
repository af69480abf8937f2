#include "checks/LibraryHandles.h"

#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/reach/TranslationUnitReach.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"

namespace streamlint {
namespace {

/// The variable or member an argument names, and the expression naming it.
std::pair<const clang::ValueDecl *, const clang::Expr *>
storageOf(const clang::Expr *argument) {
  if (!argument)
    return {nullptr, nullptr};
  const clang::Expr *bare = argument->IgnoreParenImpCasts();
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bare))
    if (llvm::isa<clang::VarDecl>(ref->getDecl()))
      return {ref->getDecl(), ref};
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(bare))
    if (llvm::isa<clang::FieldDecl>(member->getMemberDecl()))
      return {member->getMemberDecl(), member};
  return {nullptr, nullptr};
}

/// `&h` as the creators' first argument.
const clang::Expr *addressedOperand(const clang::Expr *argument) {
  const auto *address =
      llvm::dyn_cast<clang::UnaryOperator>(argument->IgnoreParenImpCasts());
  if (!address || address->getOpcode() != clang::UO_AddrOf)
    return nullptr;
  return address->getSubExpr();
}

std::string_view nameOf(const clang::FunctionDecl &function) {
  const clang::IdentifierInfo *identifier = function.getIdentifier();
  return identifier ? std::string_view(identifier->getName().data(),
                                       identifier->getName().size())
                    : std::string_view();
}

} // namespace

const api::LibraryHandleInfo *libraryHandleOfType(clang::QualType type) {
  // Walk the sugar: cufftHandle is a typedef of int, so only the spelling
  // tells a plan from an integer.
  while (!type.isNull()) {
    if (const auto *typedefType = type->getAs<clang::TypedefType>()) {
      std::string name = typedefType->getDecl()->getName().str();
      if (const api::LibraryHandleInfo *handle = api::handleOfType(name))
        return handle;
      type = typedefType->getDecl()->getUnderlyingType();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

void LibraryHandleTracker::addReference(const clang::Expr &reference) {
  auto [storage, expr] = storageOf(&reference);
  if (storage && expr == &reference)
    references_[storage].insert(expr);
}

void LibraryHandleTracker::addParameter(const clang::ParmVarDecl &parameter) {
  const auto *function = llvm::dyn_cast<clang::FunctionDecl>(parameter.getDeclContext());
  if (function && function->doesThisDeclarationHaveABody() &&
      libraryHandleOfType(parameter.getType()))
    events_[&parameter]; // summarized even if nothing happens to it
}

void LibraryHandleTracker::addEvent(const clang::Expr *handle, std::optional<Event> event) {
  auto [storage, expr] = storageOf(handle);
  if (!storage)
    return;
  consumed_.insert(expr);
  std::vector<Event> &events = events_[storage];
  if (event)
    events.push_back(*event);
}

void LibraryHandleTracker::addCall(const clang::CallExpr &call,
                                   const clang::FunctionDecl *function) {
  using Kind = HandleEventKind;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || !function)
    return;
  std::string_view name = nameOf(*callee);
  if (call.getNumArgs() > 0 && !name.empty()) {
    const clang::Expr *first = call.getArg(0);
    if (const api::LibraryHandleInfo *created = api::handleCreatedBy(name)) {
      addEvent(addressedOperand(first), Event{Kind::Create, &call, function, created});
      return;
    }
    const api::LibraryHandleInfo *library = libraryHandleOfType(first->getType());
    if (library && name.substr(0, library->prefix.size()) == library->prefix) {
      std::optional<Event> event;
      if (api::handleBoundBy(name) == library)
        event = Event{Kind::Bind, &call, function, library};
      else if (api::isHandleWork(*library, name))
        event = Event{Kind::Work, &call, function, library};
      addEvent(first, event); // set-up calls (Destroy, SetMathMode) consume it too
      return;
    }
  }
  // Other functions taking a handle: what they do with it is decided by
  // their parameter's facts, from whichever TU defines them.
  for (unsigned i = 0; i < call.getNumArgs() && i < callee->getNumParams(); ++i) {
    const clang::Expr *argument = call.getArg(i);
    const api::LibraryHandleInfo *library = libraryHandleOfType(argument->getType());
    if (!library || !libraryHandleOfType(callee->getParamDecl(i)->getType()))
      continue;
    addEvent(argument, Event{Kind::Pass, &call, function, library, callee, i});
  }
}

bool LibraryHandleTracker::escaped(const clang::ValueDecl *storage) const {
  auto found = references_.find(storage);
  if (found == references_.end())
    return false;
  for (const clang::Expr *reference : found->second)
    if (!consumed_.count(reference))
      return true;
  return false;
}

namespace {

/// Where a handle is stored, as a key every TU spells the same way.
std::optional<std::pair<std::string, HandleScope>>
storageKey(const clang::ValueDecl &storage, const TranslationUnitContext &context) {
  if (const auto *parameter = llvm::dyn_cast<clang::ParmVarDecl>(&storage)) {
    const auto *function = llvm::dyn_cast<clang::FunctionDecl>(parameter->getDeclContext());
    if (!function)
      return std::nullopt;
    return std::make_pair(parameterHandleKey(reach::functionUsr(*function),
                                                    parameter->getFunctionScopeIndex()),
                          HandleScope::Parameter);
  }
  if (const auto *variable = llvm::dyn_cast<clang::VarDecl>(&storage))
    if (variable->isLocalVarDecl()) {
      const auto *function =
          llvm::dyn_cast_or_null<clang::FunctionDecl>(variable->getParentFunctionOrMethod());
      if (!function)
        return std::nullopt;
      SourcePoint where = context.point(variable->getLocation());
      return std::make_pair(reach::functionUsr(*function) + "@" +
                                variable->getNameAsString() + "@" +
                                std::to_string(where.line) + ":" +
                                std::to_string(where.column),
                            HandleScope::Local);
    }
  llvm::SmallString<128> usr;
  if (clang::index::generateUSRForDecl(&storage, usr))
    return std::nullopt;
  return std::make_pair(std::string(usr), HandleScope::Shared);
}

} // namespace

std::optional<HandleFacts>
LibraryHandleTracker::factsOf(const clang::ValueDecl *storage,
                              const std::vector<Event> &events,
                              const TranslationUnitContext &context,
                              const FindingFor &findingFor) const {
  auto key = storageKey(*storage, context);
  if (!key)
    return std::nullopt;
  HandleFacts facts;
  facts.key = key->first;
  facts.scope = key->second;
  facts.name = storage->getNameAsString();
  facts.escapes = escaped(storage);
  for (const Event &event : events) {
    HandleEvent fact;
    fact.kind = event.kind;
    fact.site = context.point(event.call->getBeginLoc());
    fact.function = reach::functionUsr(*event.function);
    const clang::FunctionDecl *called = event.call->getDirectCallee();
    fact.call = called && called->getIdentifier()
                    ? std::string(api::baseName(std::string_view(
                          called->getName().data(), called->getName().size())))
                    : "a call";
    if (event.kind == HandleEventKind::Pass) {
      fact.callee = reach::functionUsr(*event.callee);
      fact.parameter = event.parameter;
    }
    if (event.kind == HandleEventKind::Create)
      fact.finding = findingFor({event.library, storage, event.call, event.function});
    facts.events.push_back(std::move(fact));
  }
  return facts;
}

std::vector<HandleFacts>
LibraryHandleTracker::facts(const TranslationUnitContext &context,
                            const FindingFor &findingFor) const {
  std::vector<HandleFacts> result;
  for (const auto &[storage, events] : events_)
    if (std::optional<HandleFacts> facts =
            factsOf(storage, events, context, findingFor))
      result.push_back(std::move(*facts));
  return result;
}

} // namespace streamlint
