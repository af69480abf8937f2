// NarrowedWaitFix.h: the statement rewrites, and what makes them safe to
// write (the loop header means the same at the wait; the macro around the
// call declares none of the names the rewrite uses).
#include "analyzer/analysis/NarrowedWaitFix.h"
#include "analyzer/analysis/NarrowedWaitParts.h"
#include "analyzer/analysis/SourceEdits.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/StreamResolution.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringMap.h"

namespace streamlint {
namespace narrowing {


/// Only an expression statement that is the call itself (or `(void)call`), or
/// an error-check macro with the call as its argument (also one that
/// declares a variable for the result): other statements
/// around the call (an `if` on its result, an assignment) would run twice.
std::optional<HeldStatement> heldStatement(const clang::CallExpr &call,
                                           TranslationUnitContext &context,
                                           bool allowAssignment) {
  clang::ASTContext &ast = context.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::DynTypedNode child = clang::DynTypedNode::create(call);
  HeldStatement held;
  for (int guard = 0; guard < 64 && !held.block; ++guard) {
    auto parents = ast.getParents(child);
    if (parents.empty() || parents[0].get<clang::LambdaExpr>())
      return std::nullopt;
    // An error-check macro that keeps the result, `cudaError_t e = call;`:
    // the variable's declaration statement holds the call.
    if (const auto *var = parents[0].get<clang::VarDecl>(); var && var->isLocalVarDecl()) {
      child = parents[0];
      continue;
    }
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      return std::nullopt;
    // A block written in the file (not one an error-check macro expands to).
    if (const auto *block = llvm::dyn_cast<clang::CompoundStmt>(parent);
        block && block->getLBracLoc().isFileID()) {
      held.block = block;
      held.statement = child.get<clang::Stmt>();
    }
    child = parents[0];
  }
  if (!held.statement)
    return std::nullopt;
  bool macro = held.statement->getBeginLoc().isMacroID();
  if (macro) {
    if (!sm.isMacroArgExpansion(call.getBeginLoc()))
      return std::nullopt;
  } else {
    const auto *expr = llvm::dyn_cast<clang::Expr>(held.statement);
    const clang::Expr *bare = expr ? expr->IgnoreParenImpCasts() : nullptr;
    if (const auto *cast = llvm::dyn_cast_or_null<clang::CStyleCastExpr>(bare))
      bare = cast->getType()->isVoidType() ? cast->getSubExpr()->IgnoreParenImpCasts() : nullptr;
    // `err = call;`: a plain variable of the call's type takes the result.
    if (const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(bare);
        allowAssignment && assign && assign->getOpcode() == clang::BO_Assign &&
        assign->getRHS()->IgnoreParenImpCasts() == &call) {
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParens());
      const auto *variable = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      if (!variable || variable->getType().isVolatileQualified() ||
          !ast.hasSameUnqualifiedType(variable->getType().getNonReferenceType(),
                                      call.getCallReturnType(ast)))
        return std::nullopt;
      held.assignedTo = variable;
      bare = &call;
    }
    if (bare != &call)
      return std::nullopt;
  }
  const clang::LangOptions &lang = ast.getLangOpts();
  held.range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(held.statement->getSourceRange()), sm, lang);
  clang::CharSourceRange callRange = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(call.getSourceRange()), sm, lang);
  if (held.range.isInvalid() || callRange.isInvalid())
    return std::nullopt;
  auto [file, begin] = sm.getDecomposedLoc(held.range.getBegin());
  auto [callFile, callBegin] = sm.getDecomposedLoc(callRange.getBegin());
  unsigned end = sm.getFileOffset(held.range.getEnd());
  unsigned callEnd = sm.getFileOffset(callRange.getEnd());
  if (file != callFile || callBegin < begin || callEnd > end)
    return std::nullopt;
  held.text = clang::Lexer::getSourceText(held.range, sm, lang).str();
  held.callBegin = callBegin - begin;
  held.callEnd = callEnd - begin;
  return held;
}

/// The statement's text with its call replaced by `call`.
std::string withCall(const HeldStatement &held, llvm::StringRef call) {
  return held.text.substr(0, held.callBegin) + call.str() + held.text.substr(held.callEnd);
}

/// Whether the statement (a macro's expansion) declares any of `names`:
/// the names the rewrite writes inside it would mean that instead.
bool declaresAny(const clang::Stmt *statement, llvm::ArrayRef<std::string> names) {
  if (!statement)
    return false;
  if (const auto *declStmt = llvm::dyn_cast<clang::DeclStmt>(statement))
    for (const clang::Decl *decl : declStmt->decls())
      if (const auto *named = llvm::dyn_cast<clang::NamedDecl>(decl))
        if (llvm::is_contained(names, named->getNameAsString()))
          return true;
  for (const clang::Stmt *child : statement->children())
    if (declaresAny(child, names))
      return true;
  return false;
}

/// The references to `variable` in `body`.
void referencesTo(const clang::Stmt *stmt, const clang::Decl *variable,
                  std::vector<const clang::DeclRefExpr *> &found) {
  if (!stmt)
    return;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt))
    if (ref->getDecl()->getCanonicalDecl() == variable)
      found.push_back(ref);
  for (const clang::Stmt *child : stmt->children())
    referencesTo(child, variable, found);
}

/// Whether a lambda in `stmt` captures `variable` by reference (a call of
/// it could write the variable anywhere).
bool capturedByReference(const clang::Stmt *stmt, const clang::Decl *variable) {
  if (!stmt)
    return false;
  if (const auto *lambda = llvm::dyn_cast<clang::LambdaExpr>(stmt))
    for (const clang::LambdaCapture &capture : lambda->captures())
      if (capture.capturesVariable() && capture.getCaptureKind() == clang::LCK_ByRef &&
          capture.getCapturedVar()->getCanonicalDecl() == variable)
        return true;
  for (const clang::Stmt *child : stmt->children())
    if (capturedByReference(child, variable))
      return true;
  return false;
}

const clang::Stmt *parentOf(const clang::Stmt &stmt, clang::ASTContext &ast) {
  auto parents = ast.getParents(stmt);
  return parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
}

bool isRead(const clang::Stmt &ref, clang::ASTContext &ast) {
  const auto *cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parentOf(ref, ast));
  return cast && cast->getCastKind() == clang::CK_LValueToRValue;
}

/// A local variable or parameter of `function` that holds the same value from
/// `from` on: every use anywhere in the function reads it, except writes
/// before `from` (its address is never taken, it is no reference).
bool stableFrom(const clang::VarDecl &variable, const clang::FunctionDecl &function,
                clang::SourceLocation from, clang::ASTContext &ast) {
  if (!(variable.hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(variable)) ||
      variable.getType()->isReferenceType() || variable.getType().isVolatileQualified())
    return false;
  const clang::SourceManager &sm = ast.getSourceManager();
  if (capturedByReference(function.getBody(), variable.getCanonicalDecl()))
    return false;
  std::vector<const clang::DeclRefExpr *> refs;
  referencesTo(function.getBody(), variable.getCanonicalDecl(), refs);
  for (const clang::DeclRefExpr *ref : refs) {
    if (isRead(*ref, ast))
      continue;
    const clang::Stmt *parent = parentOf(*ref, ast);
    bool written = false;
    if (const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent))
      written = assign->isAssignmentOp() && assign->getLHS()->IgnoreParens() == ref;
    if (const auto *step = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent))
      written = step->isIncrementDecrementOp();
    if (!written || !sm.isBeforeInTranslationUnit(sm.getExpansionLoc(ref->getBeginLoc()), from))
      return false;
  }
  return true;
}

/// An expression the loop header may use for its bounds: literals,
/// arithmetic, and stable variables.
bool stableBound(const clang::Expr *expr, const clang::FunctionDecl &function,
                 clang::SourceLocation from, clang::ASTContext &ast) {
  expr = expr->IgnoreParenImpCasts();
  if (llvm::isa<clang::IntegerLiteral, clang::UnaryExprOrTypeTraitExpr>(expr))
    return true;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (llvm::isa<clang::EnumConstantDecl>(ref->getDecl()))
      return true;
    const auto *variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    return variable && stableFrom(*variable, function, from, ast);
  }
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(expr))
    return binary->isAdditiveOp() || binary->isMultiplicativeOp()
               ? stableBound(binary->getLHS(), function, from, ast) &&
                     stableBound(binary->getRHS(), function, from, ast)
               : false;
  return false;
}

/// `for (int i = A; i < B; ++i)` (or `!=`, `i++`, `i += 1`): the variable it
/// counts with, when the body never writes it.
const clang::VarDecl *countingVariable(const clang::ForStmt &loop) {
  const auto *init = llvm::dyn_cast_or_null<clang::DeclStmt>(loop.getInit());
  if (!init || !init->isSingleDecl())
    return nullptr;
  const auto *index = llvm::dyn_cast<clang::VarDecl>(init->getSingleDecl());
  if (!index || !index->getInit() || !index->getType()->isIntegerType())
    return nullptr;
  auto isIndex = [&](const clang::Expr *expr) {
    const auto *ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(expr ? expr->IgnoreParenImpCasts() : nullptr);
    return ref && ref->getDecl() == index;
  };
  const auto *condition = llvm::dyn_cast_or_null<clang::BinaryOperator>(loop.getCond());
  if (!condition || !(condition->getOpcode() == clang::BO_LT || condition->getOpcode() == clang::BO_NE) ||
      !isIndex(condition->getLHS()))
    return nullptr;
  const clang::Expr *inc = loop.getInc();
  bool step = false;
  if (const auto *unary = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc))
    step = unary->isIncrementOp() && isIndex(unary->getSubExpr());
  if (const auto *compound = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc)) {
    const auto *one = llvm::dyn_cast<clang::IntegerLiteral>(compound->getRHS()->IgnoreParenImpCasts());
    step = compound->getOpcode() == clang::BO_AddAssign && isIndex(compound->getLHS()) && one &&
           one->getValue() == 1;
  }
  return step ? index : nullptr;
}

/// `a[i]` as a call's stream: the array (a local or parameter) and the index
/// variable.
std::pair<const clang::VarDecl *, const clang::VarDecl *> subscriptStream(const clang::CallExpr &call) {
  std::optional<StreamArgumentSite> site = streamArgumentOf(call);
  if (!site)
    return {};
  const auto *subscript =
      llvm::dyn_cast<clang::ArraySubscriptExpr>(site->argument->IgnoreParenImpCasts());
  if (!subscript)
    return {};
  const auto *base = llvm::dyn_cast<clang::DeclRefExpr>(subscript->getBase()->IgnoreParenImpCasts());
  const auto *index = llvm::dyn_cast<clang::DeclRefExpr>(subscript->getIdx()->IgnoreParenImpCasts());
  if (!base || !index)
    return {};
  return {llvm::dyn_cast<clang::VarDecl>(base->getDecl()),
          llvm::dyn_cast<clang::VarDecl>(index->getDecl())};
}

/// Every use of the array from the loop to the wait reads an element (no
/// element is written, the array is not passed on), and no stream is
/// destroyed there.
bool arrayUntouched(const clang::VarDecl &array, const clang::FunctionDecl &function,
                    clang::SourceLocation from, clang::SourceLocation to, clang::ASTContext &ast) {
  if (!(array.hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(array)) ||
      capturedByReference(function.getBody(), array.getCanonicalDecl()))
    return false;
  const clang::SourceManager &sm = ast.getSourceManager();
  auto within = [&](clang::SourceLocation at) {
    at = sm.getExpansionLoc(at);
    return !sm.isBeforeInTranslationUnit(at, from) && sm.isBeforeInTranslationUnit(at, to);
  };
  std::vector<const clang::DeclRefExpr *> refs;
  referencesTo(function.getBody(), array.getCanonicalDecl(), refs);
  for (const clang::DeclRefExpr *ref : refs) {
    if (!within(ref->getBeginLoc()))
      continue;
    const clang::Stmt *up = parentOf(*ref, ast);
    const auto *decay = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(up);
    const clang::Stmt *element = decay ? parentOf(*decay, ast) : nullptr;
    if (!element || !llvm::isa<clang::ArraySubscriptExpr>(element) || !isRead(*element, ast))
      return false;
  }
  return !destroysBetween(function, from, to, ast);
}

bool destroysBetween(const clang::FunctionDecl &function, clang::SourceLocation from,
                     clang::SourceLocation to, clang::ASTContext &ast) {
  const clang::SourceManager &sm = ast.getSourceManager();
  bool destroys = false;
  std::function<void(const clang::Stmt *)> scan = [&](const clang::Stmt *stmt) {
    if (!stmt || destroys)
      return;
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(stmt))
      if (const clang::FunctionDecl *callee = call->getDirectCallee())
        if (callee->getIdentifier() && callee->getName().starts_with("cudaStreamDestroy")) {
          clang::SourceLocation at = sm.getExpansionLoc(call->getBeginLoc());
          destroys = !sm.isBeforeInTranslationUnit(at, from) && sm.isBeforeInTranslationUnit(at, to);
        }
    for (const clang::Stmt *child : stmt->children())
      scan(child);
  };
  scan(function.getBody());
  return destroys;
}

std::string lineOf(const clang::Stmt &stmt, TranslationUnitContext &context) {
  return std::to_string(context.point(stmt.getBeginLoc()).line);
}

} // namespace narrowing

using namespace narrowing;

std::optional<NarrowedWaitFix> streamArrayWaitFix(const clang::CallExpr &sync,
                                                  TranslationUnitContext &context,
                                                  bool perThreadBuild, std::string &why) {
  clang::ASTContext &ast = context.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function || !function->getBody())
    return std::nullopt;
  FunctionOperations ops = operationsOf(*function, ast, perThreadBuild);
  std::optional<size_t> at;
  for (size_t i = 0; i < ops.operations.size(); ++i)
    if (ops.operations[i].node == &sync)
      at = i;
  // The work issued last before the wait.
  const StreamOperation *last = nullptr;
  for (size_t i = at.value_or(0); i > 0 && !last; --i) {
    const StreamOperation &op = ops.operations[i - 1];
    if (op.effect == OperationEffect::HostWaitsAll)
      return std::nullopt;
    if (op.effect == OperationEffect::Enqueue)
      last = &op;
  }
  const auto *lastCall = last ? llvm::dyn_cast<clang::CallExpr>(last->node) : nullptr;
  if (!lastCall || last->loops.empty())
    return std::nullopt;
  auto [array, index] = subscriptStream(*lastCall);
  const auto *loop = llvm::dyn_cast<clang::ForStmt>(last->loops.front());
  if (!array || !index || !loop || countingVariable(*loop) != index)
    return std::nullopt;
  std::string arrayName = array->getNameAsString(), indexName = index->getNameAsString();
  std::optional<HeldStatement> held = heldStatement(sync, context);
  if (!held || llvm::find(held->block->body(), loop) == held->block->body_end() ||
      !sm.isBeforeInTranslationUnit(loop->getEndLoc(), held->statement->getBeginLoc())) {
    why = "the wait is not a statement of the block that holds the loop at line " +
          lineOf(*loop, context) + " over '" + arrayName + "'";
    return std::nullopt;
  }
  clang::SourceLocation from = sm.getExpansionLoc(loop->getBeginLoc());
  const auto *condition = llvm::cast<clang::BinaryOperator>(loop->getCond());
  if (!stableBound(index->getInit(), *function, from, ast) ||
      !stableBound(condition->getRHS(), *function, from, ast) ||
      !arrayUntouched(*array, *function, from, sm.getExpansionLoc(held->statement->getEndLoc()),
                      ast)) {
    why = "the loop at line " + lineOf(*loop, context) + " over '" + arrayName +
          "' may not cover the same streams at the wait (its bounds or the array change, "
          "or a stream is destroyed, in between)";
    return std::nullopt;
  }
  // The index is only read in the body (the header steps it).
  std::vector<const clang::DeclRefExpr *> indexUses;
  referencesTo(loop->getBody(), index->getCanonicalDecl(), indexUses);
  for (const clang::DeclRefExpr *use : indexUses)
    if (!isRead(*use, ast))
      return std::nullopt;
  clang::CharSourceRange header = clang::CharSourceRange::getCharRange(
      loop->getForLoc(), loop->getRParenLoc().getLocWithOffset(1));
  if (loop->getForLoc().isMacroID() || loop->getRParenLoc().isMacroID())
    return std::nullopt;
  std::string headerText = clang::Lexer::getSourceText(header, sm, ast.getLangOpts()).str();
  std::vector<std::string> names = {arrayName, indexName, "cudaStreamSynchronize"};
  if (declaresAny(held->statement, names))
    return std::nullopt;
  std::string wait = "cudaStreamSynchronize(" + arrayName + "[" + indexName + "])";
  NarrowedWaitFix narrowed;
  narrowed.target = array;
  narrowed.fix.description = "wait only for the streams of '" + arrayName +
                             "' that the loop at line " + lineOf(*loop, context) +
                             " issues its work to (" + headerText + " " + wait + ";)";
  FixEdits edits(context, narrowed.fix);
  if (!edits.add(held->range, headerText + " " + withCall(*held, wait)))
    return std::nullopt;
  const clang::Decl *arrayKey = array->getCanonicalDecl();
  narrowed.judge = [&sync, &context, perThreadBuild, loop, arrayKey,
                    array = array](const OrderingAssumption &assume) {
    auto onArray = [&](const StreamOperation &op) {
      const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node);
      if (!call || op.loops.empty() || op.loops.front() != loop)
        return false;
      auto [base, counter] = subscriptStream(*call);
      return base && base->getCanonicalDecl() == arrayKey && counter == countingVariable(*loop);
    };
    return checkNarrowedWaitToStreams(sync, *array, onArray, context, perThreadBuild, assume);
  };
  return narrowed;
}

std::optional<NarrowedWaitFix> asyncCopyFix(const clang::CallExpr &copy,
                                            const clang::VarDecl *stream,
                                            TranslationUnitContext &context,
                                            bool perThreadBuild) {
  static const llvm::StringMap<const char *> asyncForms = {
      {"cudaMemcpy", "cudaMemcpyAsync"},     {"cudaMemset", "cudaMemsetAsync"},
      {"cudaMemcpy2D", "cudaMemcpy2DAsync"}, {"cudaMemset2D", "cudaMemset2DAsync"},
      {"cudaMemcpy3D", "cudaMemcpy3DAsync"}, {"cudaMemset3D", "cudaMemset3DAsync"},
  };
  const clang::FunctionDecl *callee = copy.getDirectCallee();
  if (perThreadBuild || !callee || !callee->getIdentifier())
    return std::nullopt;
  auto form = asyncForms.find(callee->getName());
  if (form == asyncForms.end() ||
      llvm::any_of(copy.arguments(), [](const clang::Expr *a) { return llvm::isa<clang::CXXDefaultArgExpr>(a); }))
    return std::nullopt;
  std::optional<HeldStatement> held = heldStatement(copy, context, /*allowAssignment=*/true);
  std::string name = stream ? stream->getNameAsString() : "cudaStreamPerThread";
  if (!held || declaresAny(held->statement, {name, form->second, "cudaStreamSynchronize"}))
    return std::nullopt;
  llvm::StringRef callText =
      llvm::StringRef(held->text).slice(held->callBegin, held->callEnd);
  llvm::StringRef after = callText.substr(form->first().size()).ltrim();
  if (!callText.starts_with(form->first()) || !after.starts_with("(") || !callText.ends_with(")"))
    return std::nullopt;
  std::string asyncCall = std::string(form->second) + callText.substr(form->first().size()).str();
  asyncCall.insert(asyncCall.size() - 1, ", " + name);
  const clang::SourceManager &sm = context.sources();
  std::string separator = ";\n" + lineIndentation(held->range.getBegin(), sm);
  if (!beginsLine(held->range.getBegin(), sm))
    separator = "; ";
  NarrowedWaitFix narrowed;
  narrowed.target = stream;
  narrowed.fix.description =
      stream ? "copy with " + std::string(form->second) + " on '" + name +
                   "', the one stream this function uses, then wait for '" + name +
                   "' only (cudaStreamSynchronize)"
             : "copy with " + std::string(form->second) +
                   " on cudaStreamPerThread (no single stream is in use here), then "
                   "wait for cudaStreamPerThread only (cudaStreamSynchronize)";
  FixEdits edits(context, narrowed.fix);
  // `err = cudaMemcpy(...)`: err gets the copy's error if it fails, else
  // the wait's, as the synchronous copy reported either.
  std::string waitGuard;
  if (held->assignedTo) {
    waitGuard = "if (" + held->assignedTo->getNameAsString() + " == cudaSuccess) ";
    narrowed.fix.description += " when the copy succeeds (it keeps the error '" +
                                held->assignedTo->getNameAsString() + "' gets)";
  }
  if (!edits.add(held->range, withCall(*held, asyncCall) + separator + waitGuard +
                                  withCall(*held, "cudaStreamSynchronize(" + name + ")")))
    return std::nullopt;
  narrowed.judge = [&copy, stream, &context, perThreadBuild](const OrderingAssumption &assume) {
    return checkAsyncCopy(copy, stream, context, perThreadBuild, assume);
  };
  return narrowed;
}

} // namespace streamlint
