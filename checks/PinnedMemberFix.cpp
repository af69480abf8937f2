#include "checks/PinnedMemberFix.h"

#include "checks/PinnedCopyWaits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {
namespace {

std::string quoted(const clang::NamedDecl *decl) { return "'" + decl->getNameAsString() + "'"; }

/// `e`, casts aside, reads `field` (of any object).
bool readsField(const clang::Expr *e, const clang::FieldDecl *field) {
  const auto *member = e ? llvm::dyn_cast<clang::MemberExpr>(stripCasts(e)) : nullptr;
  return member && member->getMemberDecl() == field;
}

/// The statement `obj.field = allocation;` (casts aside) holding
/// `allocation`; or, in `initialized`, the member a constructor's
/// initializer list sets to it.
const clang::BinaryOperator *storingAssignment(clang::ASTContext &ast,
                                               const clang::Expr *allocation,
                                               const clang::FieldDecl *&initialized) {
  const clang::Stmt *current = allocation;
  while (true) {
    clang::DynTypedNodeList parents = ast.getParents(*current);
    if (parents.empty())
      return nullptr;
    if (const auto *init = parents[0].get<clang::CXXCtorInitializer>()) {
      initialized = init->getMember();
      return nullptr;
    }
    const clang::Stmt *up = parents[0].get<clang::Stmt>();
    if (!up || !llvm::isa<clang::CastExpr, clang::ParenExpr>(up)) {
      const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(up);
      return assign && assign->getOpcode() == clang::BO_Assign ? assign : nullptr;
    }
    current = up;
  }
}

/// Every use of the member in the TU: frees to rewrite, the assignments,
/// and what lets the pointer leave the member.
struct MemberUses : clang::RecursiveASTVisitor<MemberUses> {
  const clang::FieldDecl *field;
  const clang::RecordDecl *record;
  bool isArray;
  clang::ASTContext &ast;
  std::vector<const clang::Stmt *> frees;
  std::vector<const clang::BinaryOperator *> assignments; // other than null
  std::string unsafe;
  MemberUses(const clang::FieldDecl *f, bool array, clang::ASTContext &a)
      : field(f), record(f->getParent()), isArray(array), ast(a) {}
  void escape(std::string why) {
    if (unsafe.empty())
      unsafe = std::move(why);
  }
  bool isNull(const clang::Expr *e) const {
    return e->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull);
  }
  bool TraverseConstructorInitializer(clang::CXXCtorInitializer *init) {
    if (init->getMember() == field && init->getInit() && !init->isInClassMemberInitializer()) {
      const clang::Expr *value = init->getInit();
      if (const auto *list = llvm::dyn_cast<clang::ParenListExpr>(value))
        value = list->getNumExprs() == 1 ? list->getExpr(0) : value;
      if (!isNull(value) && !llvm::isa<clang::ImplicitValueInitExpr>(value->IgnoreImplicit()))
        escape(quoted(field) + " is set in a constructor's initializer list");
    }
    return RecursiveASTVisitor::TraverseConstructorInitializer(init);
  }
  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *f = call->getDirectCallee();
    llvm::StringRef name = f && f->getIdentifier() ? f->getName() : "";
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      if (!readsField(call->getArg(i), field))
        continue;
      if (name == "free" && !isArray && call->getNumArgs() == 1)
        frees.push_back(call);
      else if (name == "free" || name == "realloc")
        escape(std::string(name) + " of " + quoted(field) + " does not match its allocation");
      else if (f && !f->isInStdNamespace() && !name.starts_with("cu") &&
               !ast.getSourceManager().isInSystemHeader(f->getLocation()))
        if (std::string why = argumentReleaser(f, i); !why.empty())
          escape(quoted(field) + " is passed to " + why);
    }
    return true;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *del) {
    if (readsField(del->getArgument(), field)) {
      if (isArray && del->isArrayForm())
        frees.push_back(del);
      else
        escape("a delete of " + quoted(field) + " does not match its allocation");
    }
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->isAssignmentOp() && readsField(op->getLHS(), field) &&
        (op->getOpcode() != clang::BO_Assign || !isNull(op->getRHS())))
      assignments.push_back(op);
    if (op->isAssignmentOp() && readsField(op->getRHS(), field))
      escape(quoted(field) + " is copied into another variable, which could be freed or returned");
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *ret) {
    if (ret->getRetValue() && readsField(ret->getRetValue(), field))
      escape(quoted(field) + " is returned to callers");
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) {
    if (op->getOpcode() == clang::UO_AddrOf && readsField(op->getSubExpr(), field))
      escape("the address of " + quoted(field) + " is taken");
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    if (var->getInit() && readsField(var->getInit(), field))
      escape(quoted(field) + " is copied into " + quoted(var) + ", which could be freed or returned");
    const clang::Type *type = var->getType()->getBaseElementTypeUnsafe();
    if (var->hasGlobalStorage() && type->getAsRecordDecl() == record)
      escape(quoted(var) + " is a " + quoted(record) + " with static storage: its frees would "
             "run after the CUDA runtime shut down");
    return true;
  }
};

/// `free(x)` -> `cudaFreeHost(x)`; `delete[] x` -> `cudaFreeHost(x)`.
bool rewriteFrees(TranslationUnitContext &context, FixIt &fix,
                  const std::vector<const clang::Stmt *> &frees) {
  for (const clang::Stmt *release : frees) {
    std::optional<TextEdit> edit;
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(release))
      edit = context.edit(clang::CharSourceRange::getTokenRange(
                              call->getCallee()->IgnoreImpCasts()->getSourceRange()),
                          "cudaFreeHost");
    else if (const auto *del = llvm::dyn_cast<clang::CXXDeleteExpr>(release))
      edit = context.edit(clang::CharSourceRange::getTokenRange(del->getSourceRange()),
                          "cudaFreeHost(" +
                              context.normalizedText(del->getArgument()->getSourceRange()) + ")");
    if (!edit)
      return false;
    fix.edits.push_back(std::move(*edit));
  }
  return true;
}

/// Why code outside what the fix sees may reach `field`, or "".
std::string unseenUses(const clang::FieldDecl *field, const clang::SourceManager &sm) {
  const clang::RecordDecl *record = field->getParent();
  if (record->isUnion())
    return quoted(field) + " is a member of a union";
  if (!sm.isInMainFile(sm.getExpansionLoc(record->getLocation())))
    return "the class " + quoted(record) + " is defined in a header: code in other files "
           "could free or reallocate " + quoted(field);
  if (const clang::Expr *init = field->getInClassInitializer())
    if (!init->isNullPointerConstant(field->getASTContext(),
                                     clang::Expr::NPC_ValueDependentIsNotNull))
      return quoted(field) + " has a default member initializer";
  return "";
}

} // namespace

PinnedFixPlan pinnedMemberFix(TranslationUnitContext &context, PointerProvenance &provenance,
                              const clang::Expr *allocation) {
  const std::string notHeld =
      "the buffer is not held in one pointer variable or member that the fix could rewrite";
  const clang::FieldDecl *initialized = nullptr;
  const clang::BinaryOperator *store = storingAssignment(context.ast(), allocation, initialized);
  if (initialized)
    return {{}, quoted(initialized) + " is set in a constructor's initializer list"};
  const auto *member = store ? llvm::dyn_cast<clang::MemberExpr>(store->getLHS()->IgnoreParens())
                             : nullptr;
  const auto *field = member ? llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  if (!field)
    return {{}, notHeld};
  if (std::string why = unseenUses(field, context.sources()); !why.empty())
    return {{}, why};
  std::string why;
  std::optional<std::string> size = pinnedAllocationSize(allocation, context, why);
  if (!size)
    return {{}, why};
  MemberUses uses(field, llvm::isa<clang::CXXNewExpr>(allocation), context.ast());
  uses.TraverseDecl(context.ast().getTranslationUnitDecl());
  if (!uses.unsafe.empty())
    return {{}, uses.unsafe};
  if (uses.assignments.size() != 1 || uses.assignments.front() != store)
    return {{}, quoted(field) + " is set by more than one assignment (other than to null)"};
  if (uses.frees.empty())
    return {{}, quoted(field) + " is never freed"};
  clang::DynTypedNodeList parents = context.ast().getParents(*store);
  if (parents.empty() || !parents[0].get<clang::CompoundStmt>())
    return {{}, "the allocation of " + quoted(field) + " is not a plain statement"};

  PinnedFixPlan plan{FixIt{}, ""};
  plan.fix->description = "allocate the member " + quoted(field) +
                          " with cudaMallocHost and free it with cudaFreeHost";
  std::string target = context.normalizedText(store->getLHS()->getSourceRange());
  std::optional<TextEdit> allocate =
      context.edit(clang::CharSourceRange::getTokenRange(store->getSourceRange()),
                   "cudaMallocHost((void **)&" + target + ", " + *size + ")");
  if (!allocate || !rewriteFrees(context, *plan.fix, uses.frees))
    return {{}, "the allocation or a free of " + quoted(field) + " is written by a macro"};
  plan.fix->edits.insert(plan.fix->edits.begin(), std::move(*allocate));
  std::vector<const clang::FunctionDecl *> users = functionsUsing(context, field);
  if (std::string problem = copyWaitProblem(context, provenance, field, users, /*local=*/false);
      !problem.empty()) {
    plan.fix->applicable = false;
    plan.fix->description += "; not applied by --fix: " + problem;
  }
  return plan;
}

} // namespace streamlint
