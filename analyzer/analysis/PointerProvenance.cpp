#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/analysis/PointerProvenanceWalk.h"
#include "analyzer/analysis/ProvenanceIndex.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {
namespace {

std::string quoted(const clang::NamedDecl *decl) {
  return "'" + decl->getNameAsString() + "'";
}

/// The container a `.data()`, `[i]`, `.front()` is called on, if it is a
/// standard container whose storage the analysis understands.
enum class Container { None, HeapStdAllocator, Inline };

Container containerKind(clang::QualType type) {
  type = type.getNonReferenceType();
  if (const auto *pointer = type->getAs<clang::PointerType>())
    type = pointer->getPointeeType();
  const auto *record = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type->getAsCXXRecordDecl());
  if (!record)
    return Container::None;
  const clang::DeclContext *ns = record->getDeclContext()->getEnclosingNamespaceContext();
  while (ns && ns->isInlineNamespace())
    ns = ns->getParent();
  const auto *nsDecl = llvm::dyn_cast_or_null<clang::NamespaceDecl>(ns);
  if (!nsDecl)
    return Container::None;
  llvm::StringRef space = nsDecl->getName(), name = record->getName();
  bool isStd = space == "std" && nsDecl->getParent()->getRedeclContext()->isTranslationUnit();
  if (isStd && name == "array")
    return Container::Inline;
  // A custom allocator may well be pinned (thrust's pinned allocator): only
  // std::allocator storage is known to be pageable.
  const clang::TemplateArgumentList &args = record->getTemplateArgs();
  unsigned allocatorIndex = name == "basic_string" ? 2 : 1;
  bool known = (isStd && (name == "vector" || name == "basic_string")) ||
               (space == "thrust" && name == "host_vector");
  if (!known || args.size() <= allocatorIndex ||
      args[allocatorIndex].getKind() != clang::TemplateArgument::Type)
    return Container::None;
  const auto *allocator = args[allocatorIndex].getAsType()->getAsCXXRecordDecl();
  if (!allocator || allocator->getName() != "allocator" ||
      !allocator->isInStdNamespace())
    return Container::None;
  return Container::HeapStdAllocator;
}

/// __managed__: clang keeps the attribute only for HIP, so with the real
/// CUDA headers the macro spelling is all that is left.
bool declaredManaged(const clang::VarDecl *var, clang::ASTContext &ast) {
  if (var->hasAttr<clang::HIPManagedAttr>())
    return true;
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::SourceLocation begin = sm.getExpansionLoc(var->getBeginLoc());
  clang::SourceLocation name = sm.getExpansionLoc(var->getLocation());
  if (sm.getFileID(begin) != sm.getFileID(name))
    return false;
  llvm::StringRef text = clang::Lexer::getSourceText(
      clang::CharSourceRange::getCharRange(begin, name), sm, ast.getLangOpts());
  return text.contains("__managed__");
}

const clang::ValueDecl *namedObject(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
    return ref->getDecl();
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e))
    return member->getMemberDecl();
  return nullptr;
}

} // namespace

/// What one recorded definition of a variable or field stores: its value, or
/// the allocation that filled it (with a later registration applied).
template <typename Definition>
Provenance PointerProvenance::definition(const Definition &def, Walk &walk) {
  return def.value ? evaluate(def.value, def.where, walk)
                   : applyRegistration(leaf(def.kind, def.origin, def.where->getBeginLoc(),
                                            def.where),
                                       walk);
}

Provenance mergeProvenance(const Provenance &a, const Provenance &b) {
  if (a.kind == MemoryKind::Null)
    return b;
  if (b.kind == MemoryKind::Null)
    return a;
  if (a.kind != b.kind || a.returnedBy != b.returnedBy || a.parameterOf != b.parameterOf)
    return unknown();
  if (a.site == b.site)
    return a;
  Provenance merged = a; // same kind, different buffers: no single origin
  merged.site = nullptr;
  merged.holder = nullptr;
  merged.allocation = nullptr;
  return merged;
}

PointerProvenance::PointerProvenance(
    clang::ASTContext &ast,
    const std::optional<std::vector<const clang::FunctionDecl *>> *instantiations,
    bool preambleNamesProject)
    : ast_(ast), index_(std::make_unique<ProvenanceIndex>(
                     ast, instantiations && *instantiations ? &**instantiations : nullptr,
                     preambleNamesProject)) {}
PointerProvenance::~PointerProvenance() = default;

Provenance PointerProvenance::of(const clang::Expr *pointer,
                                 const clang::Stmt *use,
                                 const clang::FunctionDecl *function) {
  Walk walk{use, function};
  return evaluate(pointer, use, walk);
}

Provenance PointerProvenance::storage(const clang::Expr *lvalue, const clang::Stmt *use,
                                      const clang::FunctionDecl *function) {
  Walk walk{use, function};
  return storageOf(lvalue, use, walk);
}

const std::vector<const clang::CallExpr *> &PointerProvenance::registrations() {
  return index_->registrations();
}

const llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> &
PointerProvenance::callsByCallee() {
  return index_->callsByCallee();
}

const llvm::SmallPtrSet<const clang::FunctionDecl *, 16> &PointerProvenance::addressTaken() {
  return index_->addressTaken();
}

/// A parameter whose callers this TU does not all show: the whole-program
/// pass decides it from every call's argument (PassedMemory). Not for
/// virtual methods (calls reach overriders), template patterns or main.
Provenance openParameter(const clang::ParmVarDecl *parm,
                         const clang::FunctionDecl *function) {
  if (!function || function->isDependentContext() || function->isMain() ||
      !(parm->getType()->isPointerType() || parm->getType()->isReferenceType()))
    return unknown();
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(function))
    if (method->isVirtual())
      return unknown();
  Provenance open = leaf(MemoryKind::Unknown, "", parm->getLocation(), parm);
  open.parameterOf = parm;
  return open;
}


Provenance PointerProvenance::evaluate(const clang::Expr *e,
                                       const clang::Stmt *use, Walk &walk) {
  if (!e || walk.depth > MaxDepth)
    return unknown();
  e = e->IgnoreParens();
  if (e->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull))
    return leaf(MemoryKind::Null, "", e->getBeginLoc(), nullptr);
  if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay)
      return storageOf(cast->getSubExpr(), use, walk);
    if (cast->getCastKind() == clang::CK_IntegralToPointer)
      return unknown();
    return evaluate(cast->getSubExpr(), use, walk);
  }
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (unary->getOpcode() == clang::UO_AddrOf)
      return storageOf(unary->getSubExpr(), use, walk);
    if (unary->isIncrementDecrementOp())
      return evaluate(unary->getSubExpr(), use, walk);
    return unknown();
  }
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (binary->isAdditiveOp()) {
      const clang::Expr *lhs = binary->getLHS(), *rhs = binary->getRHS();
      return evaluate(lhs->getType()->isPointerType() ? lhs : rhs, use, walk);
    }
    if (binary->isAssignmentOp() || binary->isCommaOp())
      return evaluate(binary->getRHS(), use, walk);
    return unknown();
  }
  if (const auto *conditional = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return mergeProvenance(evaluate(conditional->getTrueExpr(), use, walk),
                           evaluate(conditional->getFalseExpr(), use, walk));
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->getType()->isPointerType())
      return variable(var, use, walk);
    return unknown();
  }
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    const auto *field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (field && field->getType()->isPointerType())
      return declaration(field, use, walk);
    return unknown();
  }
  if (const auto *newExpr = llvm::dyn_cast<clang::CXXNewExpr>(e)) {
    if (newExpr->getNumPlacementArgs() != 0)
      return unknown();
    return applyRegistration(leaf(MemoryKind::Pageable,
                                  newExpr->isArray() ? "new[]" : "new",
                                  newExpr->getBeginLoc(), newExpr, newExpr),
                             walk);
  }
  if (const auto *callExpr = llvm::dyn_cast<clang::CallExpr>(e))
    return call(callExpr, use, walk);
  if (const auto *subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(
            subscript->getBase()->IgnoreParenImpCasts()))
      if (isPointerArrayLocal(ref->getDecl()))
        return elements(llvm::cast<clang::VarDecl>(ref->getDecl()), walk);
  return unknown();
}

/// Every element of a local array of pointers: its initializer's and every
/// element write's, merged (elements are not told apart).
Provenance PointerProvenance::elements(const clang::VarDecl *array, Walk &walk) {
  const ProvenanceIndex::Definitions *defs = index_->definitions(array);
  if ((defs && defs->escapes) || !walk.active.insert(array).second)
    return unknown();
  ++walk.depth;
  Provenance result = leaf(MemoryKind::Null, "", {}, nullptr);
  bool any = false;
  if (const auto *list = llvm::dyn_cast_or_null<clang::InitListExpr>(
          array->getInit() ? array->getInit()->IgnoreImplicit() : nullptr)) {
    const auto *type = llvm::dyn_cast<clang::ConstantArrayType>(
        array->getType().getCanonicalType().getTypePtr());
    // Elements left out are null; a filler other than null is unknown.
    if (type && list->getNumInits() < type->getSize().getZExtValue() &&
        list->hasArrayFiller() &&
        !list->getArrayFiller()->isNullPointerConstant(ast_,
                                                       clang::Expr::NPC_ValueDependentIsNotNull))
      result = unknown();
    for (const clang::Expr *init : list->inits())
      result = mergeProvenance(result, evaluate(init, walk.copy, walk));
    any = true;
  } else if (array->getInit()) {
    result = unknown();
  }
  if (defs)
    for (const ProvenanceIndex::Definition *def : index_->allDefinitions(defs)) {
      result = mergeProvenance(result, definition(*def, walk));
      any = true;
    }
  --walk.depth;
  walk.active.erase(array);
  if (!any)
    return unknown();
  result.holder = nullptr; // elements are not rewritten by the fix
  return result;
}

Provenance PointerProvenance::storageOf(const clang::Expr *e,
                                        const clang::Stmt *use, Walk &walk) {
  e = e->IgnoreParenNoopCasts(ast_);
  if (const auto *temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return leaf(MemoryKind::Pageable, "a temporary", temporary->getBeginLoc(), temporary);
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->getType()->isReferenceType())
      return referent(var, use, walk);
    if (!var)
      return unknown();
    if (declaredManaged(var, ast_))
      return leaf(MemoryKind::Pinned, "__managed__ variable " + quoted(var),
                  var->getLocation(), var);
    if (var->hasAttr<clang::CUDADeviceAttr>() || var->hasAttr<clang::CUDAConstantAttr>())
      return leaf(MemoryKind::Device, "device symbol " + quoted(var),
                  var->getLocation(), var);
    std::string what = var->hasLocalStorage()
                           ? (llvm::isa<clang::ParmVarDecl>(var) ? "parameter " : "stack variable ")
                           : (var->isStaticLocal() ? "static variable " : "global variable ");
    return applyRegistration(leaf(MemoryKind::Pageable, what + quoted(var),
                                  var->getLocation(), var),
                             walk);
  }
  if (const auto *subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
    return evaluate(subscript->getBase(), use, walk);
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (unary->getOpcode() == clang::UO_Deref)
      return evaluate(unary->getSubExpr(), use, walk);
    return unknown();
  }
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    if (!llvm::isa<clang::FieldDecl>(member->getMemberDecl()))
      return unknown();
    return member->isArrow() ? evaluate(member->getBase(), use, walk)
                             : storageOf(member->getBase(), use, walk);
  }
  if (const auto *callExpr = llvm::dyn_cast<clang::CallExpr>(e))
    return call(callExpr, use, walk); // v[i], v.front(): the container's storage
  return unknown();
}

Provenance PointerProvenance::containerStorage(const clang::Expr *object,
                                               const clang::Stmt *use, Walk &walk) {
  switch (containerKind(object->getType())) {
  case Container::Inline:
    return object->getType()->isPointerType() ? evaluate(object, use, walk)
                                              : storageOf(object, use, walk);
  case Container::HeapStdAllocator: {
    // Identity of the heap block: the variable or member holding the
    // container. Without one a registration elsewhere cannot be matched.
    const clang::ValueDecl *holder = namedObject(object);
    std::string type = object->getType().getAsString().find("string") != std::string::npos
                           ? "std::string "
                           : object->getType().getAsString().find("host_vector") !=
                                     std::string::npos
                               ? "thrust::host_vector "
                               : "std::vector ";
    if (!holder || object->getType()->isPointerType() ||
        holder->getType()->isReferenceType()) {
      // std::allocator's heap block whichever container it is: pageable,
      // unless the TU pins some memory (which could be this block).
      if (walk.applyRegistrations && !index_->registrations().empty())
        return unknown();
      std::string name = holder ? quoted(holder) + " " : "";
      return leaf(MemoryKind::Pageable, type + name + "storage",
                  holder ? holder->getLocation() : object->getBeginLoc(),
                  holder ? static_cast<const void *>(holder) : object);
    }
    return applyRegistration(leaf(MemoryKind::Pageable, type + quoted(holder) + " storage",
                                  holder->getLocation(), holder),
                             walk);
  }
  case Container::None:
    return unknown();
  }
  return unknown();
}

Provenance PointerProvenance::call(const clang::CallExpr *callExpr,
                                   const clang::Stmt *use, Walk &walk) {
  const clang::FunctionDecl *callee = callExpr->getDirectCallee();
  if (!callee)
    return unknown();
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(callExpr)) {
    if (op->getOperator() == clang::OO_Subscript && op->getNumArgs() == 2)
      return containerStorage(op->getArg(0), use, walk);
    if (op->getOperator() == clang::OO_Star && op->getNumArgs() == 1)
      return iteratorStorage(op->getArg(0), use, walk); // *it: an element
    if ((op->getOperator() == clang::OO_Plus || op->getOperator() == clang::OO_Minus) &&
        op->getNumArgs() == 2)
      return iteratorStorage(op->getArg(0), use, walk); // it + i: the same block
    return unknown();
  }
  if (!callee->getIdentifier())
    return unknown();
  llvm::StringRef name = callee->getName();
  if (const auto *memberCall = llvm::dyn_cast<clang::CXXMemberCallExpr>(callExpr)) {
    if (name == "data" || name == "c_str" || name == "front" || name == "back" ||
        name == "at" || name == "begin" || name == "end" || name == "cbegin" ||
        name == "cend")
      return containerStorage(memberCall->getImplicitObjectArgument(), use, walk);
    return userFunction(callExpr, callee, walk);
  }
  bool inSystem = callee->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
                  callee->isInStdNamespace();
  if (inSystem && (name == "malloc" || name == "calloc" || name == "realloc" ||
                   name == "aligned_alloc" || name == "valloc" || name == "memalign"))
    return applyRegistration(leaf(MemoryKind::Pageable, name.str(),
                                  callExpr->getBeginLoc(), callExpr, callExpr),
                             walk);
  return userFunction(callExpr, callee, walk);
}

Provenance PointerProvenance::variable(const clang::VarDecl *var,
                                       const clang::Stmt *use, Walk &walk) {
  if (var->getType()->isReferenceType())
    return unknown();
  return declaration(var, use, walk);
}

Provenance PointerProvenance::declaration(const clang::ValueDecl *decl,
                                          const clang::Stmt *use, Walk &walk) {
  const ProvenanceIndex::Definitions *defs = index_->definitions(decl);
  const auto *var = llvm::dyn_cast<clang::VarDecl>(decl);
  bool local = var && var->hasLocalStorage();
  if (!local && !index_->closedInTranslationUnit(decl))
    return unknown(); // other TUs may assign it
  if (defs && defs->escapes)
    return unknown();
  if (!walk.active.insert(decl).second)
    return unknown(); // a cycle: p = q; q = p;
  ++walk.depth;
  std::vector<const ProvenanceIndex::Definition *> relevant =
      local ? index_->reachingDefinitions(defs, use) : index_->allDefinitions(defs);
  Provenance result = leaf(MemoryKind::Null, "", {}, nullptr);
  bool any = false;
  if (const auto *parm = llvm::dyn_cast_or_null<clang::ParmVarDecl>(var)) {
    if (!defs || index_->initialReaches(defs, use)) {
      result = parameter(parm, walk);
      any = true;
    }
  } else if (var && var->getInit() && (!defs || index_->initialReaches(defs, use))) {
    result = evaluate(var->getInit(), use, walk);
    any = true;
  } else if (const auto *field = llvm::dyn_cast<clang::FieldDecl>(decl)) {
    if (field->hasInClassInitializer() && field->getInClassInitializer()) {
      result = evaluate(field->getInClassInitializer(), use, walk);
      any = true;
    }
  }
  for (const ProvenanceIndex::Definition *def : relevant) {
    result = mergeProvenance(result, definition(*def, walk));
    any = true;
  }
  walk.active.erase(decl);
  --walk.depth;
  if (!any)
    return unknown();
  if (var && result.allocation && relevant.size() <= 1) // globals too: see PinnedAllocationFix
    result.holder = var;
  return result;
}

Provenance PointerProvenance::parameter(const clang::ParmVarDecl *parm, Walk &walk) {
  const auto *function = llvm::dyn_cast<clang::FunctionDecl>(parm->getDeclContext());
  const std::vector<const clang::CallExpr *> *callers =
      function ? index_->visibleCallers(function) : nullptr;
  if (!callers || callers->empty())
    return applyRegistration(openParameter(parm, function), walk);
  unsigned index = parm->getFunctionScopeIndex();
  Provenance result = leaf(MemoryKind::Null, "", {}, nullptr);
  for (const clang::CallExpr *caller : *callers) {
    unsigned argument = index;
    if (llvm::isa<clang::CXXOperatorCallExpr>(caller) &&
        llvm::isa<clang::CXXMethodDecl>(function))
      ++argument; // the object is argument 0
    if (argument >= caller->getNumArgs())
      return unknown();
    result = mergeProvenance(result, evaluate(caller->getArg(argument), caller, walk));
    if (result.kind == MemoryKind::Unknown)
      return result;
  }
  result.holder = nullptr; // the caller's variable, not this function's
  return result;
}

Provenance PointerProvenance::applyRegistration(Provenance result, Walk &walk) {
  bool undecided = result.kind == MemoryKind::Unknown && (result.returnedBy || result.parameterOf);
  if ((result.kind != MemoryKind::Pageable && !undecided) || !result.site ||
      !walk.applyRegistrations)
    return result;
  for (const clang::CallExpr *registration : index_->registrations()) {
    if (registration->getNumArgs() < 1)
      continue;
    // A registration later in the copy's own function does not help the
    // copy; one in another function cannot be ordered, so it counts.
    if (walk.copy && index_->sameFunction(registration, walk.copy) &&
        !index_->before(registration, walk.copy))
      continue;
    Walk inner{registration, nullptr};
    inner.applyRegistrations = false;
    Provenance registered = evaluate(registration->getArg(0), registration, inner);
    if (registered.site != result.site)
      continue;
    return leaf(MemoryKind::Pinned, result.origin + " registered with cudaHostRegister",
                registration->getBeginLoc(), result.site);
  }
  return result;
}

} // namespace streamlint
