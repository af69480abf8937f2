#include "checks/PinnedAllocationFix.h"
#include "checks/PinnedMemberFix.h"

#include "analyzer/analysis/SourceEdits.h"
#include "checks/PinnedCopyWaits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {

const clang::Expr *stripCasts(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e))
      e = cast->getSubExpr();
    else
      return e;
  }
}

bool refersTo(const clang::Expr *e, const clang::VarDecl *var) {
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stripCasts(e));
  return ref && ref->getDecl() == var;
}

namespace {

std::string quoted(const clang::NamedDecl *decl) { return "'" + decl->getNameAsString() + "'"; }

/// Whether `function` (a user function receiving the buffer as argument
/// `index`) may free or keep it: it has no body here, or its body passes
/// the parameter to free/delete/realloc or stores it.
std::string mayReleaseArgument(const clang::FunctionDecl *function, unsigned index) {
  const clang::FunctionDecl *definition = nullptr;
  if (!function->hasBody(definition) || !definition || index >= definition->getNumParams())
    return quoted(function) + " is not defined in this file and could free it";
  const clang::ParmVarDecl *parm = definition->getParamDecl(index);
  struct Scan : clang::RecursiveASTVisitor<Scan> {
    const clang::ParmVarDecl *parm;
    bool releases = false;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *f = call->getDirectCallee();
      for (const clang::Expr *arg : call->arguments())
        if (refersTo(arg, parm) && (!f || !f->isInStdNamespace()))
          if (!f || !f->getIdentifier() || f->getName() == "free" ||
              f->getName() == "realloc" || f->getBody())
            releases = true; // a free, or a further user function: not followed
      return true;
    }
    bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *del) {
      releases |= refersTo(del->getArgument(), parm);
      return true;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *op) {
      releases |= op->isAssignmentOp() && refersTo(op->getRHS(), parm);
      return true;
    }
  } scan;
  scan.parm = parm;
  scan.TraverseStmt(definition->getBody());
  return scan.releases ? quoted(function) + " may free or keep it" : "";
}

/// Every use of a buffer variable: frees to rewrite, and uses that let it
/// outlive what the fix sees or reach another free.
struct Uses : clang::RecursiveASTVisitor<Uses> {
  const clang::VarDecl *var;
  bool isArray;
  std::vector<const clang::Stmt *> frees;
  const clang::BinaryOperator *assignment = nullptr;
  unsigned assignments = 0;
  std::string unsafe; // why, if the buffer escapes
  Uses(const clang::VarDecl *v, bool array) : var(v), isArray(array) {}
  void escape(std::string why) {
    if (unsafe.empty())
      unsafe = std::move(why);
  }
  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *f = call->getDirectCallee();
    llvm::StringRef name = f && f->getIdentifier() ? f->getName() : "";
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      if (!refersTo(call->getArg(i), var))
        continue;
      if (name == "free" && !isArray && call->getNumArgs() == 1)
        frees.push_back(call);
      else if (name == "free" || name == "realloc")
        escape(std::string(name) + " of " + quoted(var) + " does not match its allocation");
      else if (f && !f->isInStdNamespace() && !name.starts_with("cu") &&
               !context(f).getSourceManager().isInSystemHeader(f->getLocation()))
        if (std::string why = mayReleaseArgument(f, i); !why.empty())
          escape(quoted(var) + " is passed to " + why);
    }
    return true;
  }
  static clang::ASTContext &context(const clang::FunctionDecl *f) { return f->getASTContext(); }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *del) {
    if (refersTo(del->getArgument(), var)) {
      if (isArray && del->isArrayForm())
        frees.push_back(del);
      else
        escape("a delete of " + quoted(var) + " does not match its allocation");
    }
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->isAssignmentOp() && refersTo(op->getLHS(), var)) {
      ++assignments;
      assignment = op;
    }
    if (op->isAssignmentOp() && refersTo(op->getRHS(), var))
      escape(quoted(var) + " is copied into another variable, which could be freed or returned");
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *ret) {
    if (ret->getRetValue() && refersTo(ret->getRetValue(), var))
      escape(quoted(var) + " is returned to callers");
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) {
    if (op->getOpcode() == clang::UO_AddrOf && refersTo(op->getSubExpr(), var))
      escape("the address of " + quoted(var) + " is taken");
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *other) {
    if (other != var && other->getInit() && refersTo(other->getInit(), var))
      escape(quoted(var) + " is copied into " + quoted(other) +
             ", which could be freed or returned");
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *lambda) {
    for (const clang::LambdaCapture &capture : lambda->captures())
      if (capture.capturesVariable() && capture.getCapturedVar() == var)
        escape(quoted(var) + " is captured by a lambda");
    return true;
  }
};

/// The size in bytes of malloc(n) / new T[n] as text; nullopt (with why)
/// for other allocations.
std::optional<std::string> allocationSize(const clang::Expr *allocation,
                                          TranslationUnitContext &context, std::string &why) {
  const auto *newExpr = llvm::dyn_cast<clang::CXXNewExpr>(allocation);
  const auto *mallocCall = llvm::dyn_cast<clang::CallExpr>(allocation);
  const clang::SourceManager &sm = context.sources();
  const clang::LangOptions &lang = context.ast().getLangOpts();
  auto text = [&](const clang::Expr *e) {
    return clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(e->getSourceRange()), sm, lang)
        .str();
  };
  if (mallocCall) {
    const clang::FunctionDecl *callee = mallocCall->getDirectCallee();
    if (!callee || callee->getName() != "malloc" || mallocCall->getNumArgs() != 1) {
      why = "it is allocated by " +
            (callee ? callee->getNameAsString() : std::string("an indirect call")) +
            ", which cudaMallocHost does not replace (zeroing, resizing)";
      return std::nullopt;
    }
    return text(mallocCall->getArg(0));
  }
  if (!newExpr || !newExpr->isArray() || newExpr->hasInitializer() ||
      !newExpr->getAllocatedType()->isScalarType() || !newExpr->getArraySize()) {
    why = "it is not a malloc or a new[] of scalars without initializer";
    return std::nullopt;
  }
  const clang::Expr *count = (*newExpr->getArraySize())->IgnoreImpCasts();
  std::string countText = text(count);
  if (!llvm::isa<clang::DeclRefExpr>(count) && !llvm::isa<clang::IntegerLiteral>(count))
    countText = "(" + countText + ")";
  return countText + " * sizeof(" +
         newExpr->getAllocatedType().getAsString(context.ast().getPrintingPolicy()) + ")";
}

/// The indentation of the line `at` begins; "" when code precedes it there.
std::string indentOf(clang::SourceLocation at, const clang::SourceManager &sm) {
  return beginsLine(at, sm) ? lineIndentation(at, sm) : "";
}

/// The pinned fix's edits: frees, the allocating statement.
class Edits : public FixEdits {
public:
  using FixEdits::FixEdits;
  /// free(p) -> cudaFreeHost(p); delete[] p -> cudaFreeHost(p).
  bool frees(const std::vector<const clang::Stmt *> &frees) {
    for (const clang::Stmt *release : frees) {
      bool ok = false;
      if (const auto *call = llvm::dyn_cast<clang::CallExpr>(release))
        ok = replaceTokens(call->getCallee()->IgnoreImpCasts(), "cudaFreeHost");
      else if (const auto *del = llvm::dyn_cast<clang::CXXDeleteExpr>(release))
        ok = replaceTokens(
            del, "cudaFreeHost(" +
                     context().normalizedText(del->getArgument()->getSourceRange()) + ")");
      if (!ok)
        return false;
    }
    return true;
  }
  /// `p = (T *)malloc(n);` as a full statement -> cudaMallocHost(...).
  bool assignment(const clang::BinaryOperator *assign, const std::string &call) {
    clang::DynTypedNodeList parents = context().ast().getParents(*assign);
    return !parents.empty() && parents[0].get<clang::CompoundStmt>() &&
           replaceTokens(assign, call);
  }
  /// `T *p = (T *)malloc(n);` -> `T *p = nullptr; cudaMallocHost(...);`.
  bool declaration(const clang::VarDecl *var, const std::string &call) {
    clang::DynTypedNodeList parents = context().ast().getParents(*var);
    const auto *declStmt = parents.empty() ? nullptr : parents[0].get<clang::DeclStmt>();
    if (!declStmt || !declStmt->isSingleDecl())
      return false;
    const clang::SourceManager &sm = context().sources();
    const clang::LangOptions &lang = context().ast().getLangOpts();
    clang::SourceLocation afterSemicolon =
        clang::Lexer::getLocForEndOfToken(declStmt->getEndLoc(), 0, sm, lang);
    return replaceTokens(var->getInit(), lang.CPlusPlus11 ? "nullptr" : "NULL") &&
           add(afterSemicolon, afterSemicolon,
               "\n" + indentOf(declStmt->getBeginLoc(), sm) + call + ";");
  }
};

std::string pinnedCall(const clang::VarDecl *var, const std::string &size) {
  return "cudaMallocHost((void **)&" + var->getNameAsString() + ", " + size + ")";
}

FixIt newFix(const std::string &name) {
  FixIt fix;
  fix.description = "allocate '" + name + "' with cudaMallocHost and free it with cudaFreeHost";
  return fix;
}

/// The fix made a suggestion: what --fix would risk.
void markBlocked(PinnedFixPlan &plan, const std::string &why) {
  if (why.empty() || !plan.fix)
    return;
  plan.fix->applicable = false;
  plan.fix->description += "; not applied by --fix: " + why;
}

} // namespace

std::optional<std::string> pinnedAllocationSize(const clang::Expr *allocation,
                                                TranslationUnitContext &context,
                                                std::string &why) {
  return allocationSize(allocation, context, why);
}

std::string argumentReleaser(const clang::FunctionDecl *function, unsigned index) {
  return mayReleaseArgument(function, index);
}

/// A call that destroys the CUDA context (and with it all pinned memory).
const clang::CallExpr *contextReset(clang::ASTContext &ast) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::CallExpr *found = nullptr;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *f = call->getDirectCallee();
      if (f && f->getIdentifier() &&
          (f->getName() == "cudaDeviceReset" || f->getName().starts_with("cuCtxDestroy") ||
           f->getName().starts_with("cuDevicePrimaryCtxReset")))
        found = call;
      return !found;
    }
  } finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  return finder.found;
}

PinnedFixPlan PinnedAllocationFixer::plan(const Provenance &memory,
                                          const clang::FunctionDecl *function) {
  const clang::Expr *allocation = memory.allocation;
  if (!function || !function->hasBody())
    return {};
  if (!resetChecked_) {
    resetChecked_ = true;
    reset_ = contextReset(context_.ast());
  }
  if (reset_ && allocation)
    return {{}, "the program destroys the CUDA context (" +
                    reset_->getDirectCallee()->getNameAsString() + " at line " +
                    std::to_string(context_.sources().getExpansionLineNumber(
                        reset_->getBeginLoc())) +
                    "), which frees all pinned memory while the host may still use it"};
  if (!allocation || !memory.site)
    return {{}, "the memory is not one malloc or new[] whose pointer one variable holds (" +
                    memory.origin + ")"};
  if (llvm::isa_and_nonnull<clang::ParmVarDecl>(memory.holder))
    return {{}, quoted(memory.holder) + " comes from the function's callers, which own its "
                                        "allocation and its frees"};
  const clang::FunctionDecl *allocatedIn = context_.enclosingFunction(*allocation);
  if (allocatedIn && allocatedIn != function && memory.holder &&
      memory.holder->getParentFunctionOrMethod() == function)
    return fixed_.insert(allocatedIn).second ? wrapper(allocation, allocatedIn)
                                             : PinnedFixPlan{};
  if (!fixed_.insert(memory.site).second)
    return {};
  const clang::VarDecl *var = memory.holder;
  if (!var)
    return pinnedMemberFix(context_, provenance_, allocation);
  if (var->hasGlobalStorage() && !llvm::isa<clang::ParmVarDecl>(var))
    return global(var, allocation);
  if (llvm::isa<clang::ParmVarDecl>(var) || var->getParentFunctionOrMethod() != function)
    return {{}, quoted(var) + " comes from the function's caller"};
  return local(var, allocation, function);
}

PinnedFixPlan PinnedAllocationFixer::local(const clang::VarDecl *var,
                                           const clang::Expr *allocation,
                                           const clang::FunctionDecl *function) {
  std::string why;
  std::optional<std::string> size = allocationSize(allocation, context_, why);
  if (!size)
    return {{}, why};
  Uses uses(var, llvm::isa<clang::CXXNewExpr>(allocation));
  uses.TraverseStmt(function->getBody());
  if (!uses.unsafe.empty())
    return {{}, uses.unsafe};
  if (uses.frees.empty())
    return {{}, quoted(var) + " is never freed in " + quoted(function)};
  PinnedFixPlan plan{newFix(var->getNameAsString()), ""};
  Edits edits(context_, *plan.fix);
  bool declared = var->getInit() && stripCasts(var->getInit()) == allocation;
  bool allocated =
      declared ? uses.assignments == 0 && edits.declaration(var, pinnedCall(var, *size))
      : uses.assignments == 1 && stripCasts(uses.assignment->getRHS()) == allocation &&
              (!var->getInit() ||
               var->getInit()->isNullPointerConstant(context_.ast(),
                                                     clang::Expr::NPC_ValueDependentIsNotNull)) &&
              edits.assignment(uses.assignment, pinnedCall(var, *size));
  if (!allocated || !edits.frees(uses.frees))
    return {{}, quoted(var) + " is assigned more than once or not by a plain statement"};
  markBlocked(plan, copyWaitProblem(context_, provenance_, var, {function}, /*local=*/true));
  return plan;
}

PinnedFixPlan PinnedAllocationFixer::global(const clang::VarDecl *var,
                                            const clang::Expr *allocation) {
  if (var->isExternallyVisible())
    return {{}, quoted(var) + " has external linkage: code in other files could free or "
                              "reallocate it (make it static to let the fix see every use)"};
  std::string why;
  std::optional<std::string> size = allocationSize(allocation, context_, why);
  if (!size)
    return {{}, why};
  Uses uses(var, llvm::isa<clang::CXXNewExpr>(allocation));
  uses.TraverseDecl(context_.ast().getTranslationUnitDecl());
  if (!uses.unsafe.empty())
    return {{}, uses.unsafe};
  bool nullInit = !var->getInit() ||
                  var->getInit()->isNullPointerConstant(context_.ast(),
                                                        clang::Expr::NPC_ValueDependentIsNotNull);
  if (!nullInit || uses.assignments != 1 ||
      stripCasts(uses.assignment->getRHS()) != allocation)
    return {{}, quoted(var) + " is not allocated exactly once by an assignment statement"};
  if (uses.frees.empty())
    return {{}, quoted(var) + " is never freed"};
  PinnedFixPlan plan{newFix(var->getNameAsString()), ""};
  Edits edits(context_, *plan.fix);
  if (!edits.assignment(uses.assignment, pinnedCall(var, *size)) || !edits.frees(uses.frees))
    return {{}, "the allocation of " + quoted(var) + " is not a plain statement"};
  std::vector<const clang::FunctionDecl *> users = functionsUsing(context_, var);
  markBlocked(plan, copyWaitProblem(context_, provenance_, var, users, /*local=*/false));
  return plan;
}

namespace {

/// Why code this fix cannot see may call `wrapperFunction` ("" when every
/// call is in this TU).
std::string unseenCallers(const clang::FunctionDecl *wrapperFunction,
                          PointerProvenance &provenance) {
  std::string name = quoted(wrapperFunction);
  if (wrapperFunction->isExternallyVisible())
    return "it is allocated by " + name + ", which code in other files could also "
           "call (make it static to let the fix see every caller)";
  if (provenance.addressTaken().contains(wrapperFunction->getCanonicalDecl()))
    return "the address of " + name + " is taken: not every caller is known";
  return "";
}

/// The `return` statement of a block that returns `allocation` itself (casts
/// and parentheses aside); null when the wrapper does anything else with it.
const clang::ReturnStmt *returnOfAllocation(const clang::Expr *allocation,
                                            clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(*allocation);
  const clang::Stmt *up = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
  while (up && llvm::isa<clang::CastExpr, clang::ParenExpr>(up)) {
    parents = ast.getParents(*up);
    up = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
  }
  const auto *ret = llvm::dyn_cast_or_null<clang::ReturnStmt>(up);
  if (!ret)
    return nullptr;
  clang::DynTypedNodeList retParents = ast.getParents(*ret);
  return !retParents.empty() && retParents[0].get<clang::CompoundStmt>() ? ret : nullptr;
}

/// `return (T *)malloc(size);` -> `void *pinned = nullptr;
/// cudaMallocHost(&pinned, size); return (T *)pinned;`. "" when done, else
/// why not.
std::string pinReturnedAllocation(Edits &edits, const clang::ReturnStmt *ret,
                                  const clang::FunctionDecl *wrapperFunction,
                                  const std::string &size, TranslationUnitContext &context) {
  std::string name = quoted(wrapperFunction);
  for (const clang::ParmVarDecl *parm : wrapperFunction->parameters())
    if (parm->getName() == "pinned")
      return "the wrapper " + name + " has a parameter named 'pinned'";
  std::string type =
      wrapperFunction->getReturnType().getAsString(context.ast().getPrintingPolicy());
  std::string indent = indentOf(ret->getBeginLoc(), context.sources());
  if (!edits.replaceTokens(ret, "void *pinned = nullptr;\n" + indent + "cudaMallocHost(&pinned, " +
                             size + ");\n" + indent + "return (" + type + ")pinned"))
    return "the wrapper " + name + " is written by a macro";
  return "";
}

/// What freeing every caller's buffer with cudaFreeHost found: why the fix
/// cannot apply (`refused`), or why --fix would risk it (`waitProblem`).
struct CallerFrees {
  std::string refused, waitProblem;
};

/// Each call of the wrapper (`name`) stores its result in a local variable
/// of its caller, which frees it there: those frees become cudaFreeHost.
CallerFrees freeInEveryCaller(Edits &edits, const std::vector<const clang::CallExpr *> &calls,
                              const std::string &name, TranslationUnitContext &context,
                              PointerProvenance &provenance) {
  CallerFrees result;
  for (const clang::CallExpr *call : calls) {
    const clang::FunctionDecl *caller = context.enclosingFunction(*call);
    const clang::VarDecl *holder = resultHolder(context, call);
    if (!caller || !holder)
      return {"a call of " + name + " does not store its result in a local variable", ""};
    Uses uses(holder, false);
    uses.TraverseStmt(caller->getBody());
    if (!uses.unsafe.empty())
      return {uses.unsafe, ""};
    if (uses.frees.empty() || !edits.frees(uses.frees))
      return {"the buffer " + quoted(holder) + " gets from " + name + " is not freed in " +
                  quoted(caller),
              ""};
    if (result.waitProblem.empty())
      result.waitProblem =
          copyWaitProblem(context, provenance, holder, {caller}, /*local=*/true);
  }
  return result;
}

} // namespace

/// `T *wrap(n) { return (T *)malloc(n); }`, static and called only in this
/// TU, each result held by a local variable of its caller.
PinnedFixPlan PinnedAllocationFixer::wrapper(const clang::Expr *allocation,
                                             const clang::FunctionDecl *wrapperFunction) {
  std::string name = quoted(wrapperFunction);
  if (std::string unseen = unseenCallers(wrapperFunction, provenance_); !unseen.empty())
    return {{}, unseen};
  std::string why;
  std::optional<std::string> size = allocationSize(allocation, context_, why);
  if (!size || !llvm::isa<clang::CallExpr>(allocation))
    return {{}, size ? "the wrapper " + name + " does not call malloc" : why};
  const clang::ReturnStmt *ret = returnOfAllocation(allocation, context_.ast());
  if (!ret)
    return {{}, "the wrapper " + name + " does not return malloc's result directly"};

  PinnedFixPlan plan{newFix(wrapperFunction->getNameAsString() + "'s buffers"), ""};
  plan.fix->description = "allocate the buffers " + name +
                          " returns with cudaMallocHost and free them with cudaFreeHost";
  Edits edits(context_, *plan.fix);
  if (std::string refused = pinReturnedAllocation(edits, ret, wrapperFunction, *size, context_);
      !refused.empty())
    return {{}, refused};
  auto calls = provenance_.callsByCallee().find(wrapperFunction->getCanonicalDecl());
  if (calls == provenance_.callsByCallee().end())
    return {};
  CallerFrees frees = freeInEveryCaller(edits, calls->second, name, context_, provenance_);
  if (!frees.refused.empty())
    return {{}, frees.refused};
  markBlocked(plan, frees.waitProblem);
  return plan;
}

} // namespace streamlint
