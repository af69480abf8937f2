#include "analyzer/analysis/LibraryHandles.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

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

void LibraryHandleTracker::addEvent(const clang::Expr *handle, Event event) {
  auto [storage, expr] = storageOf(handle);
  if (!storage)
    return;
  consumed_.insert(expr);
  events_[storage].push_back(event);
}

void LibraryHandleTracker::addCall(const clang::CallExpr &call,
                                   const clang::FunctionDecl *function) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || !function)
    return;
  std::string_view name = nameOf(*callee);
  Event event{EventKind::Setup, &call, function, nullptr};
  if (call.getNumArgs() > 0 && !name.empty()) {
    const clang::Expr *first = call.getArg(0);
    if (const api::LibraryHandleInfo *created = api::handleCreatedBy(name)) {
      event.kind = EventKind::Create;
      event.library = created;
      addEvent(addressedOperand(first), event);
      return;
    }
    const api::LibraryHandleInfo *library = libraryHandleOfType(first->getType());
    if (library && name.substr(0, library->prefix.size()) == library->prefix) {
      event.library = library;
      if (api::handleBoundBy(name) == library)
        event.kind = EventKind::Bind;
      else if (api::isHandleWork(*library, name))
        event.kind = EventKind::Work;
      addEvent(first, event); // set-up calls (Destroy, SetMathMode) consume it too
      return;
    }
  }
  // The TU's own functions taking a handle: followed through their bodies.
  const clang::FunctionDecl *definition = callee->getDefinition();
  if (!definition || !definition->hasBody())
    return;
  for (unsigned i = 0; i < call.getNumArgs() && i < definition->getNumParams(); ++i) {
    const clang::Expr *argument = call.getArg(i);
    const api::LibraryHandleInfo *library = libraryHandleOfType(argument->getType());
    if (!library || !libraryHandleOfType(definition->getParamDecl(i)->getType()))
      continue;
    Event through{EventKind::Through, &call, function, library, definition, i};
    addEvent(argument, through);
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

bool LibraryHandleTracker::before(const clang::Stmt *a, const clang::Stmt *b) const {
  const clang::SourceManager &sm = ast_.getSourceManager();
  return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(a->getBeginLoc()),
                                      sm.getExpansionLoc(b->getBeginLoc()));
}

LibraryHandleTracker::ParameterEffect
LibraryHandleTracker::effectOf(const clang::FunctionDecl &callee, unsigned parameter,
                               unsigned depth) const {
  ParameterEffect effect;
  const clang::ParmVarDecl *declared = callee.getParamDecl(parameter);
  auto found = events_.find(declared);
  if (escaped(declared) || depth > 4) {
    effect.escapes = true;
    return effect;
  }
  if (found == events_.end())
    return effect;
  for (const Event &event : found->second) {
    if (event.kind == EventKind::Bind) {
      effect.binds = true;
    } else if (event.kind == EventKind::Work && !effect.work) {
      effect.work = event.call;
    } else if (event.kind == EventKind::Through) {
      ParameterEffect inner = effectOf(*event.callee, event.parameter, depth + 1);
      effect.binds |= inner.binds;
      effect.escapes |= inner.escapes;
      if (!effect.work)
        effect.work = inner.work;
    } else if (event.kind == EventKind::Create) {
      effect.escapes = true; // re-created inside: a different handle
    }
  }
  return effect;
}

std::vector<UnboundHandleUse> LibraryHandleTracker::unboundUses() const {
  std::vector<UnboundHandleUse> result;
  for (const auto &[storage, events] : events_) {
    if (escaped(storage) || llvm::isa<clang::ParmVarDecl>(storage))
      continue;
    // Binds, with through-calls resolved into binds or work.
    struct Resolved { const Event *event; bool binds; const clang::CallExpr *work; };
    std::vector<Resolved> resolved;
    bool unknown = false;
    for (const Event &event : events) {
      if (event.kind == EventKind::Through) {
        ParameterEffect effect = effectOf(*event.callee, event.parameter, 0);
        unknown |= effect.escapes;
        resolved.push_back({&event, effect.binds, effect.binds ? nullptr : effect.work});
      } else {
        resolved.push_back({&event, event.kind == EventKind::Bind,
                            event.kind == EventKind::Work ? event.call : nullptr});
      }
    }
    if (unknown)
      continue;
    for (const Resolved &creation : resolved) {
      if (creation.event->kind != EventKind::Create)
        continue;
      const clang::FunctionDecl *creator = creation.event->function;
      UnboundHandleUse unbound{creation.event->library, storage, creation.event->call,
                               creator, {}};
      bool boundElsewhere = false;
      for (const Resolved &other : resolved)
        if (other.binds && other.event->function != creator)
          boundElsewhere = true;
      for (const Resolved &use : resolved) {
        if (!use.work)
          continue;
        bool sameFunction = use.event->function == creator;
        if (sameFunction) {
          if (!before(creation.event->call, use.event->call))
            continue;
          bool bound = false;
          for (const Resolved &bind : resolved)
            bound |= bind.binds && bind.event->function == creator &&
                     before(creation.event->call, bind.event->call) &&
                     before(bind.event->call, use.event->call);
          if (bound)
            continue;
        } else if (boundElsewhere ||
                   llvm::isa<clang::VarDecl>(storage) &&
                       llvm::cast<clang::VarDecl>(storage)->hasLocalStorage()) {
          continue;
        } else {
          // Another function: unbound only if nothing in the TU binds it.
          bool anyBind = false;
          for (const Resolved &bind : resolved)
            anyBind |= bind.binds;
          if (anyBind)
            continue;
        }
        const clang::CallExpr *through =
            use.event->kind == EventKind::Through ? use.work : nullptr;
        unbound.uses.push_back({use.event->call, through});
      }
      if (!unbound.uses.empty())
        result.push_back(std::move(unbound));
    }
  }
  return result;
}

} // namespace streamlint
