#include "analyzer/analysis/ProvenanceIndex.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/FileLocalDeclarations.h"
#include "analyzer/analysis/InstantiationArguments.h"
#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/TranslationUnitContext.h"
#include "api/CudaApiTable.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace streamlint {
namespace {

/// The kind of memory a call returns through its first argument: the API
/// table's allocation rows (cudaMalloc, cudaMallocHost, cudaMallocManaged,
/// cudaMallocAsync in every spelling, cudaHostGetDevicePointer, ...), and
/// posix_memalign, the C library's. None when the call returns no memory.
std::optional<MemoryKind> memoryReturnedBy(llvm::StringRef callee) {
  if (callee == "posix_memalign")
    return MemoryKind::Pageable;
  const api::ApiInfo *row = api::findApi(callee);
  if (!row || !api::returnsMemoryThroughFirstArgument(*row))
    return std::nullopt;
  switch (row->memory) {
  case api::MemoryKind::Pinned:
  case api::MemoryKind::Managed: // page-locked or managed: copies overlap
    return MemoryKind::Pinned;
  default:
    return MemoryKind::Device;
  }
}

bool isTracked(const clang::ValueDecl *decl) {
  return (llvm::isa<clang::VarDecl>(decl) || llvm::isa<clang::FieldDecl>(decl)) &&
         decl->getType()->isPointerType();
}

} // namespace

bool isPointerArrayLocal(const clang::ValueDecl *decl) {
  const auto *var = llvm::dyn_cast<clang::VarDecl>(decl);
  if (!var || !var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var))
    return false;
  const auto *array = llvm::dyn_cast<clang::ConstantArrayType>(
      var->getType().getCanonicalType().getTypePtr());
  return array && array->getElementType()->isPointerType();
}

namespace {

/// Whether a top-level declaration of the traversal scope that comes from
/// the preamble (a project header in the include prefix) holds something
/// closed in the TU (holdsFileLocalDeclaration).
bool preambleHoldsFileLocal(const std::vector<clang::Decl *> &scope) {
  return llvm::any_of(scope, [](clang::Decl *decl) {
    const clang::DeclContext *context = decl->getLexicalDeclContext();
    return decl->isFromASTFile() && decl->getLocation().isValid() && context &&
           context->isTranslationUnit() && holdsFileLocalDeclaration(*decl);
  });
}

} // namespace

/// Fills a ProvenanceIndex in one RecursiveASTVisitor pass.
class ProvenanceIndexBuilder : public clang::RecursiveASTVisitor<ProvenanceIndexBuilder> {
public:
  explicit ProvenanceIndexBuilder(ProvenanceIndex &index) : index_(index) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// Walking a top-level declaration outside the AST's traversal scope (a
  /// system header's): the parent map does not cover it, so a tracked
  /// pointer used there counts as escaping (its provenance unknown), while
  /// calls and address-taken functions are recorded as everywhere.
  bool outsideScope = false;

  /// In a system header only a template instantiation can call or write
  /// what the user's code declares (a lambda given to std::for_each, a
  /// member std::swap writes); a non-template function or a template's
  /// pattern there knows nothing of it, and the user's functions with
  /// external linkage have no visible callers anyway. Their bodies are
  /// left unread (on a preamble, reading them deserializes them).
  ///
  /// Nor is an instantiation read unless one of its template arguments
  /// names a declaration of the scope: what else it calls or writes is the
  /// library's own (on a preamble that instantiated its headers' templates,
  /// reading those deserialized them: on the torch extension 4.8 s and
  /// 300 MiB).
  bool TraverseDecl(clang::Decl *decl) {
    if (outsideScope)
      if (auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(decl))
        if (function->doesThisDeclarationHaveABody() &&
            (!function->isTemplateInstantiation() ||
             !instantiatedWith(*function, [this](const clang::Decl &named) {
               return inScope(named);
             })))
          return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }

  /// The top-level declarations of the traversal scope (ProvenanceIndex::build).
  llvm::DenseSet<const clang::Decl *> scope;

  bool VisitCallExpr(clang::CallExpr *call) {
    calleeRefs_.insert(call->getCallee()->IgnoreParenImpCasts());
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return true;
    index_.callers_[callee->getCanonicalDecl()].push_back(call);
    noteHandedToLibrary(*callee, {call->getArgs(), call->getNumArgs()});
    if (callee->getIdentifier()) {
      llvm::StringRef name = callee->getName();
      if (name == "cudaHostRegister" || name.starts_with("cuMemHostRegister"))
        index_.registrations_.push_back(call);
    }
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) {
    if (const clang::CXXConstructorDecl *constructor = construct->getConstructor())
      noteHandedToLibrary(*constructor, {construct->getArgs(), construct->getNumArgs()});
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
    if (const auto *function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl())) {
      if (!calleeRefs_.count(ref))
        index_.addressTaken_.insert(function->getCanonicalDecl());
      return true;
    }
    if (isTracked(ref->getDecl()))
      classify(ref, ref->getDecl(), ref->refersToEnclosingVariableOrCapture());
    else if (isPointerArrayLocal(ref->getDecl()))
      classifyElement(ref, ref->getDecl(), ref->refersToEnclosingVariableOrCapture());
    return true;
  }

  bool VisitMemberExpr(clang::MemberExpr *member) {
    if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl()))
      if (!calleeRefs_.count(member))
        index_.addressTaken_.insert(method->getCanonicalDecl());
    if (isTracked(member->getMemberDecl()))
      classify(member, member->getMemberDecl(), false);
    return true;
  }

  bool TraverseConstructorInitializer(clang::CXXCtorInitializer *init) {
    if (clang::FieldDecl *field = init->getMember())
      if (isTracked(field) && init->getInit())
        add(field, {init->getInit(), init->getInit(), MemoryKind::Unknown, ""});
    return RecursiveASTVisitor::TraverseConstructorInitializer(init);
  }

  bool VisitInitListExpr(clang::InitListExpr *list) {
    const auto *record = list->getType()->getAsRecordDecl();
    if (!record || !list->isSemanticForm() || list->getType()->isDependentType())
      return true;
    if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(record))
      if (cxx->hasDefinition() && cxx->getNumBases() != 0) {
        for (const clang::FieldDecl *field : record->fields())
          if (isTracked(field))
            index_.definitions_[field].escapes = true;
        return true;
      }
    unsigned i = 0;
    for (const clang::FieldDecl *field : record->fields()) {
      if (i >= list->getNumInits())
        break;
      const clang::Expr *value = list->getInit(i++);
      if (isTracked(field) && !llvm::isa<clang::ImplicitValueInitExpr>(value))
        add(field, {value, value, MemoryKind::Unknown, ""});
    }
    return true;
  }

private:
  /// The classes of the project's objects passed to `callee` when it is a
  /// library function (ProvenanceIndex::handedToLibrary_): a lambda given
  /// to std::for_each, a functor to thrust::transform, either to a
  /// std::function's constructor. The library's body, which calls them, is
  /// skipped by the parse (AnalysisScope.h, skipsBodyOf) or not walked.
  void noteHandedToLibrary(const clang::FunctionDecl &callee,
                           llvm::ArrayRef<const clang::Expr *> arguments) {
    const clang::SourceManager &sources = index_.ast_.getSourceManager();
    if (outsideScope || !declaredInSystemHeader(callee, sources))
      return;
    for (const clang::Expr *argument : arguments) {
      clang::QualType type = argument->getType().getNonReferenceType();
      if (type->isPointerType())
        type = type->getPointeeType();
      const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
      if (record && !declaredInSystemHeader(*record, sources))
        index_.handedToLibrary_.insert(record->getCanonicalDecl());
    }
  }

  /// Whether `decl` is declared in the scope: inside one of its top-level
  /// declarations (lexically: a namespace reopened in the user's file is
  /// the user's).
  bool inScope(const clang::Decl &decl) const {
    const clang::Decl *outermost = &decl;
    for (const clang::DeclContext *context = decl.getLexicalDeclContext();
         context && !context->isTranslationUnit(); context = context->getLexicalParent())
      outermost = llvm::cast<clang::Decl>(context);
    return scope.contains(outermost);
  }

  void add(const clang::ValueDecl *decl, ProvenanceIndex::Definition def) {
    index_.definitions_[decl].list.push_back(std::move(def));
  }

  /// How a reference to a tracked pointer uses it: a read, a write we can
  /// follow, or an escape that makes its provenance unknown.
  void classify(const clang::Expr *ref, const clang::ValueDecl *decl, bool captured) {
    if (outsideScope) {
      index_.definitions_[decl].escapes = true;
      return;
    }
    const clang::Expr *node = ref;
    const clang::Stmt *parent = parentOf(index_.ast_, node);
    while (parent && llvm::isa<clang::ParenExpr>(parent)) {
      node = llvm::cast<clang::Expr>(parent);
      parent = parentOf(index_.ast_, parent);
    }
    if (!parent) {
      // The initializer of a declaration: a reference bound to the pointer
      // can write it behind our back.
      clang::DynTypedNodeList parents = index_.ast_.getParents(*node);
      const auto *var = parents.empty() ? nullptr : parents[0].get<clang::VarDecl>();
      if (var && var->getType()->isReferenceType())
        index_.definitions_[decl].escapes = true;
      return;
    }
    if (const auto *cast = llvm::dyn_cast<clang::ImplicitCastExpr>(parent)) {
      if (cast->getCastKind() != clang::CK_LValueToRValue)
        index_.definitions_[decl].escapes = true;
      return;
    }
    if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
      if (binary->getOpcode() == clang::BO_Assign && binary->getLHS() == node) {
        if (captured)
          index_.definitions_[decl].escapes = true;
        else
          add(decl, {binary, binary->getRHS(), MemoryKind::Unknown, ""});
      }
      return; // p += n keeps the buffer; comma and comparisons read
    }
    if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(parent)) {
      if (unary->getOpcode() == clang::UO_AddrOf)
        outParameter(unary, decl, captured);
      return; // ++p, --p keep the buffer
    }
    if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(parent) ||
        llvm::isa<clang::MemberExpr>(parent))
      return;
    index_.definitions_[decl].escapes = true;
  }

  /// A local array of pointers (`float *slots[2]`): writes of any element
  /// are definitions of the array, merged flow-insensitively; the array
  /// itself passed anywhere escapes.
  void classifyElement(const clang::Expr *ref, const clang::ValueDecl *decl, bool captured) {
    if (outsideScope) {
      index_.definitions_[decl].escapes = true;
      return;
    }
    const clang::Stmt *decay = parentOf(index_.ast_, ref);
    const auto *cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(decay);
    const auto *subscript = cast && cast->getCastKind() == clang::CK_ArrayToPointerDecay
                                ? llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(
                                      parentOf(index_.ast_, cast))
                                : nullptr;
    if (!cast) {
      if (!llvm::isa_and_nonnull<clang::UnaryExprOrTypeTraitExpr>(decay))
        index_.definitions_[decl].escapes = true; // bound to a reference, ...
      return; // sizeof(slots): no access
    }
    if (!subscript || subscript->getBase()->IgnoreParenImpCasts() != ref || captured) {
      index_.definitions_[decl].escapes = true;
      return;
    }
    const clang::Stmt *parent = parentOf(index_.ast_, subscript);
    if (const auto *read = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parent))
      if (read->getCastKind() == clang::CK_LValueToRValue)
        return;
    if (const auto *binary = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent))
      if (binary->getOpcode() == clang::BO_Assign && binary->getLHS() == subscript) {
        add(decl, {binary, binary->getRHS(), MemoryKind::Unknown, ""});
        return;
      }
    if (const auto *unary = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent))
      if (unary->getOpcode() == clang::UO_AddrOf) {
        outParameter(unary, decl, false);
        return;
      }
    index_.definitions_[decl].escapes = true;
  }

  void outParameter(const clang::UnaryOperator *addressOf,
                    const clang::ValueDecl *decl, bool captured) {
    const clang::Stmt *node = addressOf;
    const clang::Stmt *parent = parentOf(index_.ast_, node);
    while (parent && (llvm::isa<clang::CastExpr>(parent) || llvm::isa<clang::ParenExpr>(parent))) {
      node = parent;
      parent = parentOf(index_.ast_, parent);
    }
    const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(parent);
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    if (!captured && callee && callee->getIdentifier() && call->getNumArgs() > 0 &&
        call->getArg(0) == node) {
      if (std::optional<MemoryKind> kind = memoryReturnedBy(callee->getName())) {
        add(decl, {call, nullptr, *kind, callee->getName().str()});
        return;
      }
    }
    index_.definitions_[decl].escapes = true;
  }

  ProvenanceIndex &index_;
  llvm::SmallPtrSet<const clang::Expr *, 32> calleeRefs_;
};

void ProvenanceIndex::build() {
  if (built_)
    return;
  built_ = true;
  ProvenanceIndexBuilder builder(*this);
  if (traversesWholeTranslationUnit(ast_)) {
    builder.TraverseDecl(ast_.getTranslationUnitDecl());
    return;
  }
  // Every call in the TU, system headers' included: a file-local function
  // called from a library template (a lambda given to std::for_each) has
  // callers the TU does not show as its own. A library header outside the
  // project (AnalysisScope.h) is walked only where the scope names its
  // functions, those the project's code calls.
  const std::vector<clang::Decl *> &scope = ast_.getTraversalScope();
  llvm::DenseSet<const clang::Decl *> &inScope = builder.scope;
  inScope.insert(scope.begin(), scope.end());
  const clang::SourceManager &sources = ast_.getSourceManager();
  // The parse's instantiations are known: the scope, then those of them in
  // library headers; no other library declaration is read (on a preamble,
  // reading them deserialized them). Not when the preamble instantiated a
  // library template naming a project declaration and a declaration of the
  // scope that comes from it (a project header in the include prefix)
  // holds a file-local function, class, variable or lambda: that
  // instantiation may call or write it, and is in no list. (Of the scope,
  // the functions the call graph pulled in are the library's, and
  // declarations without a location clang's own.)
  if (instantiations_ && !(preambleNamesProject_ && preambleHoldsFileLocal(scope))) {
    for (clang::Decl *decl : scope)
      if (!traversedThroughItsExpression(*decl))
        builder.TraverseDecl(decl);
    builder.outsideScope = true;
    for (const clang::FunctionDecl *function : *instantiations_)
      if (!inScope.count(function) && declaredInSystemHeader(*function, sources))
        builder.TraverseDecl(const_cast<clang::FunctionDecl *>(function));
    builder.outsideScope = false;
    return;
  }
  llvm::DenseSet<const clang::Decl *> topLevel;
  for (clang::Decl *decl : ast_.getTranslationUnitDecl()->decls()) {
    topLevel.insert(decl);
    if (traversedThroughItsExpression(*decl))
      continue;
    builder.outsideScope = !inScope.count(decl);
    if (builder.outsideScope && !declaredInSystemHeader(*decl, sources))
      continue;
    builder.TraverseDecl(decl);
  }
  builder.outsideScope = false;
  for (clang::Decl *decl : scope)
    if (!topLevel.count(decl))
      builder.TraverseDecl(decl);
}

const ProvenanceIndex::Definitions *
ProvenanceIndex::definitions(const clang::ValueDecl *decl) {
  build();
  auto found = definitions_.find(decl);
  return found == definitions_.end() ? nullptr : &found->second;
}

bool ProvenanceIndex::closedInTranslationUnit(const clang::ValueDecl *decl) const {
  if (const auto *var = llvm::dyn_cast<clang::VarDecl>(decl))
    return var->isStaticLocal() || (var->hasGlobalStorage() && !var->isExternallyVisible());
  if (const auto *field = llvm::dyn_cast<clang::FieldDecl>(decl))
    return ast_.getSourceManager().isInMainFile(
        ast_.getSourceManager().getExpansionLoc(field->getParent()->getLocation()));
  return false;
}

const std::vector<const clang::CallExpr *> *
ProvenanceIndex::visibleCallers(const clang::FunctionDecl *function) {
  build();
  const clang::FunctionDecl *canonical = function->getCanonicalDecl();
  if (function->isExternallyVisible() || llvm::isa<clang::CXXConstructorDecl>(function) ||
      addressTaken_.count(canonical))
    return nullptr;
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(function))
    if (method->isVirtual() || handedToLibrary_.count(method->getParent()->getCanonicalDecl()))
      return nullptr;
  auto found = callers_.find(canonical);
  return found == callers_.end() ? nullptr : &found->second;
}

const std::vector<const clang::CallExpr *> &ProvenanceIndex::registrations() {
  build();
  return registrations_;
}

} // namespace streamlint
