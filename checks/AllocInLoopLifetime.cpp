#include "checks/AllocInLoopLifetime.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace streamlint {

const clang::Stmt *parentStatement(clang::ASTContext &ast, const clang::Stmt *stmt) {
  clang::DynTypedNodeList parents = ast.getParents(*stmt);
  if (parents.empty())
    return nullptr;
  if (const auto *parent = parents[0].get<clang::Stmt>())
    return parent;
  if (const auto *var = parents[0].get<clang::VarDecl>()) { // T x = call();
    clang::DynTypedNodeList up = ast.getParents(*var);
    return up.empty() ? nullptr : up[0].get<clang::DeclStmt>();
  }
  return nullptr;
}

unsigned lineOf(const clang::SourceManager &sm, clang::SourceLocation at) {
  return sm.getExpansionLineNumber(at);
}

namespace {

/// `break`/`continue` that leave `stmt` (bind to an enclosing loop), and
/// `return`/`goto`/`throw` anywhere in it.
struct Jumps : clang::RecursiveASTVisitor<Jumps> {
  const clang::Stmt *breakOrContinue = nullptr, *exit = nullptr;
  const clang::Stmt *firstBreak = nullptr;
  unsigned depth = 0; // loops and switches entered inside the scanned statement
  bool TraverseStmt(clang::Stmt *stmt) {
    if (!stmt)
      return true;
    bool nests = llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                           clang::CXXForRangeStmt, clang::SwitchStmt>(stmt);
    depth += nests;
    bool result = RecursiveASTVisitor::TraverseStmt(stmt);
    depth -= nests;
    return result;
  }
  bool VisitBreakStmt(clang::BreakStmt *s) {
    if (depth == 0 && !breakOrContinue)
      breakOrContinue = firstBreak = s;
    return true;
  }
  bool VisitContinueStmt(clang::ContinueStmt *s) {
    if (depth == 0 && !breakOrContinue)
      breakOrContinue = s;
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *s) { return note(s); }
  bool VisitGotoStmt(clang::GotoStmt *s) { return note(s); }
  bool VisitCXXThrowExpr(clang::CXXThrowExpr *s) { return note(s); }
  bool VisitCoreturnStmt(clang::CoreturnStmt *s) { return note(s); }
  bool note(const clang::Stmt *s) {
    if (!exit)
      exit = s;
    return true;
  }
  bool shouldVisitLambdaExpressions() const { return false; }
  bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }
};

Jumps jumpsIn(const clang::Stmt *stmt) {
  Jumps jumps;
  jumps.TraverseStmt(const_cast<clang::Stmt *>(stmt));
  return jumps;
}

const char *exitName(const clang::Stmt *s) {
  if (llvm::isa<clang::ReturnStmt>(s)) return "return";
  if (llvm::isa<clang::GotoStmt>(s)) return "goto";
  if (llvm::isa<clang::CXXThrowExpr>(s)) return "throw";
  return "co_return";
}

/// Writes of `buffer` (assignments, ++, address taken) and copies of it into
/// variables declared outside the loop, in `stmt` minus `skipped`.
struct BufferUses : clang::RecursiveASTVisitor<BufferUses> {
  const clang::VarDecl *buffer;
  const clang::Stmt *loop;
  const clang::SourceManager &sm;
  llvm::SmallPtrSet<const clang::Stmt *, 2> skipped;
  const clang::Stmt *write = nullptr, *escape = nullptr;
  BufferUses(const clang::VarDecl *b, const clang::Stmt *l, const clang::SourceManager &s)
      : buffer(b), loop(l), sm(s) {}
  bool refers(const clang::Expr *e) const {
    const auto *ref = e ? llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenCasts()) : nullptr;
    return ref && ref->getDecl() == buffer;
  }
  bool outsideLoop(const clang::Expr *lhs) const {
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(lhs->IgnoreParenCasts());
    const clang::Decl *target = ref ? ref->getDecl() : nullptr;
    return !target || !sm.isBeforeInTranslationUnit(loop->getBeginLoc(), target->getLocation());
  }
  bool TraverseStmt(clang::Stmt *stmt) {
    return skipped.contains(stmt) || RecursiveASTVisitor::TraverseStmt(stmt);
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->isAssignmentOp() && refers(op->getLHS()) && !write)
      write = op;
    if (op->isAssignmentOp() && refers(op->getRHS()) && outsideLoop(op->getLHS()) && !escape)
      escape = op;
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) {
    if ((op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf) &&
        refers(op->getSubExpr()) && !write)
      write = op;
    return true;
  }
};

/// The first read of `buffer` after `loop` in `function`, if any.
struct ReadAfter : clang::RecursiveASTVisitor<ReadAfter> {
  const clang::VarDecl *buffer;
  clang::SourceLocation after;
  const clang::SourceManager &sm;
  clang::ASTContext &ast;
  const clang::DeclRefExpr *read = nullptr;
  ReadAfter(const clang::VarDecl *b, clang::SourceLocation a, clang::ASTContext &c)
      : buffer(b), after(a), sm(c.getSourceManager()), ast(c) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
    if (read || ref->getDecl() != buffer ||
        !sm.isBeforeInTranslationUnit(after, ref->getLocation()))
      return true;
    const clang::Stmt *parent = parentStatement(ast, ref);
    while (parent && llvm::isa<clang::ParenExpr>(parent))
      parent = parentStatement(ast, parent);
    const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent);
    const auto *address = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent);
    bool overwritten = (assign && assign->getOpcode() == clang::BO_Assign &&
                        assign->getLHS()->IgnoreParens() == ref) ||
                       (address && address->getOpcode() == clang::UO_AddrOf);
    if (!overwritten)
      read = ref;
    return true;
  }
};

/// Why moving the buffer's lifetime out of the loop could change what the
/// program computes, or "".
/// cudaDeviceReset and the driver's context destruction in `stmt`.
const clang::Stmt *contextResetIn(const clang::Stmt *stmt) {
  if (!stmt)
    return nullptr;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *f = call->getDirectCallee())
      if (f->getIdentifier() &&
          (f->getName() == "cudaDeviceReset" || f->getName().starts_with("cuCtxDestroy") ||
           f->getName().starts_with("cuDevicePrimaryCtxReset")))
        return stmt;
  for (const clang::Stmt *child : stmt->children())
    if (const clang::Stmt *found = contextResetIn(child))
      return found;
  return nullptr;
}

} // namespace

std::string lifetimeProblem(TranslationUnitContext &context, const LoopBuffer &s,
                            const clang::FunctionDecl *function) {
  const clang::SourceManager &sm = context.sources();
  auto at = [&](const clang::Stmt *stmt) {
    return " (line " + std::to_string(lineOf(sm, stmt->getBeginLoc())) + ")";
  };
  std::string name = "'" + s.buffer->getNameAsString() + "'";
  Jumps jumps = jumpsIn(loopBodyOf(s.loop));
  if (jumps.exit)
    return std::string("the loop body can leave the function (") + exitName(jumps.exit) +
           " at line " + std::to_string(lineOf(sm, jumps.exit->getBeginLoc())) +
           "): the buffer allocated before the loop would not be freed";
  if (jumps.firstBreak &&
      sm.isBeforeInTranslationUnit(s.allocStmt->getEndLoc(), jumps.firstBreak->getBeginLoc()) &&
      sm.isBeforeInTranslationUnit(jumps.firstBreak->getBeginLoc(), s.freeStmt->getBeginLoc()))
    return "a break between the allocation and the free" + at(jumps.firstBreak) +
           " leaves the loop with " + name + " still allocated";
  if (const clang::Stmt *reset = contextResetIn(loopBodyOf(s.loop)))
    return "the loop destroys the CUDA context" + at(reset) +
           ", which frees the buffer allocated before the loop";
  BufferUses uses(s.buffer, s.loop, sm);
  uses.skipped.insert(s.allocStmt);
  uses.skipped.insert(s.freeStmt);
  uses.TraverseStmt(const_cast<clang::Stmt *>(loopBodyOf(s.loop)));
  if (uses.escape)
    return "the pointer escapes the loop: " + name + " is stored in a variable declared "
           "outside it" + at(uses.escape) + ", and every iteration would then store the same address";
  ReadAfter after(s.buffer, s.loopEnd, context.ast());
  after.TraverseStmt(function->getBody());
  if (after.read)
    return name + " is read after the loop" + at(after.read) +
           ", where it would hold another value when the loop runs zero times";
  return "";
}

namespace {

/// Declarations named `name` other than `buffer`, and references to them,
/// in `function`: after the move, `buffer` would be in scope where they are.
struct SameName : clang::RecursiveASTVisitor<SameName> {
  const clang::VarDecl *buffer;
  const clang::Stmt *found = nullptr;
  const clang::Decl *foundDecl = nullptr;
  bool same(const clang::NamedDecl *d) const {
    return d != buffer && d->getIdentifier() && d->getName() == buffer->getName();
  }
  bool VisitNamedDecl(clang::NamedDecl *d) {
    if (!foundDecl && same(d))
      foundDecl = d;
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *r) {
    if (!found && same(r->getDecl()))
      found = r;
    return true;
  }
};

/// The first reference to `buffer` in `body` before `allocStmt` begins.
struct UseBefore : clang::RecursiveASTVisitor<UseBefore> {
  const clang::VarDecl *buffer;
  clang::SourceLocation limit;
  const clang::SourceManager &sm;
  const clang::Stmt *found = nullptr;
  UseBefore(const clang::VarDecl *b, clang::SourceLocation l, const clang::SourceManager &s)
      : buffer(b), limit(l), sm(s) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *r) {
    if (!found && r->getDecl() == buffer && sm.isBeforeInTranslationUnit(r->getBeginLoc(), limit))
      found = r;
    return true;
  }
};

} // namespace

std::string declarationProblem(clang::ASTContext &ast, const clang::VarDecl *buffer,
                               const clang::Stmt *loop, const clang::Stmt *allocStmt,
                               const clang::FunctionDecl *function,
                               const clang::Stmt *&declaration) {
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::DynTypedNodeList parents = ast.getParents(*buffer);
  const auto *stmt = parents.empty() ? nullptr : parents[0].get<clang::DeclStmt>();
  if (!stmt || parentStatement(ast, stmt) != loopBodyOf(loop))
    return "it is not declared by a statement of the loop's { } body";
  if (!stmt->isSingleDecl())
    return "its declaration declares other variables too";
  if (!buffer->getType()->isPointerType())
    return "it is not a plain pointer";
  if (const clang::Expr *init = buffer->getInit())
    if (!init->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull))
      return "it is initialized with a value other than a null pointer";
  UseBefore before(buffer, allocStmt->getBeginLoc(), sm);
  before.TraverseStmt(const_cast<clang::Stmt *>(loopBodyOf(loop)));
  if (before.found)
    return "it is used before the allocation in the loop body (line " +
           std::to_string(lineOf(sm, before.found->getBeginLoc())) + ")";
  SameName other;
  other.buffer = buffer;
  other.TraverseDecl(const_cast<clang::FunctionDecl *>(function));
  if (other.foundDecl || other.found)
    return "another '" + buffer->getNameAsString() + "' is " +
           (other.foundDecl ? "declared" : "used") + " in '" + function->getNameAsString() +
           "' (line " +
           std::to_string(lineOf(sm, other.foundDecl ? other.foundDecl->getLocation()
                                                     : other.found->getBeginLoc())) +
           "), which the moved declaration could hide or clash with";
  declaration = stmt;
  return "";
}

const clang::Stmt *leavingJump(const clang::Stmt *stmt) { return jumpsIn(stmt).breakOrContinue; }

const clang::Stmt *otherWrite(const clang::SourceManager &sm, const clang::VarDecl *buffer,
                              const clang::Stmt *loop, const clang::Stmt *skipped) {
  BufferUses uses(buffer, loop, sm);
  uses.skipped.insert(skipped);
  uses.TraverseStmt(const_cast<clang::Stmt *>(loopBodyOf(loop)));
  return uses.write;
}

} // namespace streamlint
