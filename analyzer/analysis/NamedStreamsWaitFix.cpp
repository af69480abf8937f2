// cudaDeviceSynchronize() -> one cudaStreamSynchronize per stream its
// pending work is on (docs/fixes.md, rule 8, "several streams"): each named
// stream (`s`, `a[K]` with a constant K) and each loop over an array of
// streams (rule 8's `for (H) cudaStreamSynchronize(a[i]);`).
#include "analyzer/analysis/NarrowedWaitFix.h"
#include "analyzer/analysis/NarrowedWaitParts.h"
#include "analyzer/analysis/OrderingWalk.h"
#include "analyzer/analysis/SourceEdits.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/StreamResolution.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {
using namespace narrowing;
namespace {

/// One stream (or loop of streams) the new wait waits for.
struct WaitTarget {
  const clang::VarDecl *variable = nullptr; ///< the stream variable, or the array
  std::optional<llvm::APSInt> element;      ///< `a[K]`
  const clang::ForStmt *loop = nullptr;     ///< `a[i]` in the loop `loop`
  std::string wait;                         ///< the statement's new call(s), before the held form
  std::vector<size_t> operations;           ///< the pending work it covers
  bool same(const WaitTarget &other) const {
    return variable == other.variable && loop == other.loop &&
           element.has_value() == other.element.has_value() &&
           (!element || llvm::APSInt::isSameValue(*element, *other.element));
  }
};

bool isAncestor(const clang::Stmt &ancestor, const clang::Stmt &stmt, clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  for (int guard = 0; guard < 256 && !parents.empty(); ++guard) {
    const auto *parent = parents[0].get<clang::Stmt>();
    if (!parent) {
      if (const auto *decl = parents[0].get<clang::Decl>()) {
        parents = ast.getParents(*decl);
        continue;
      }
      return false;
    }
    if (parent == &ancestor)
      return true;
    parents = ast.getParents(*parent);
  }
  return false;
}

/// A parameter, or a local whose declaring block holds `site`.
bool visibleAt(const clang::VarDecl &variable, const clang::Stmt &site, clang::ASTContext &ast) {
  if (llvm::isa<clang::ParmVarDecl>(variable))
    return true;
  if (!variable.isLocalVarDecl() || variable.isStaticLocal())
    return false;
  auto parents = ast.getParents(variable);
  const auto *declStmt = parents.empty() ? nullptr : parents[0].get<clang::DeclStmt>();
  auto blocks = declStmt ? ast.getParents(*declStmt) : clang::DynTypedNodeList(clang::DynTypedNode());
  const auto *block = blocks.empty() ? nullptr : blocks[0].get<clang::CompoundStmt>();
  return block && isAncestor(*block, site, ast);
}

/// Every variable the expression names is visible at `site` (or a global
/// constant, an enumerator).
bool namesVisibleAt(const clang::Stmt *expr, const clang::Stmt &site, clang::ASTContext &ast) {
  if (!expr)
    return true;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (llvm::isa<clang::EnumConstantDecl>(ref->getDecl()))
      return true;
    const auto *variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!variable)
      return false;
    if (variable->hasGlobalStorage() && !variable->isStaticLocal())
      return variable->getType().isConstQualified();
    return visibleAt(*variable, site, ast);
  }
  for (const clang::Stmt *child : expr->children())
    if (!namesVisibleAt(child, site, ast))
      return false;
  return true;
}

/// The variable is only read from `from` to `to` (not written, its address
/// not taken), and no stream is destroyed there.
bool variableUntouched(const clang::VarDecl &variable, const clang::FunctionDecl &function,
                       clang::SourceLocation from, clang::SourceLocation to, clang::ASTContext &ast) {
  if (variable.getType()->isReferenceType() ||
      capturedByReference(function.getBody(), variable.getCanonicalDecl()))
    return false;
  const clang::SourceManager &sm = ast.getSourceManager();
  std::vector<const clang::DeclRefExpr *> refs;
  referencesTo(function.getBody(), variable.getCanonicalDecl(), refs);
  for (const clang::DeclRefExpr *ref : refs) {
    clang::SourceLocation at = sm.getExpansionLoc(ref->getBeginLoc());
    if (!sm.isBeforeInTranslationUnit(at, from) && sm.isBeforeInTranslationUnit(at, to) &&
        !isRead(*ref, ast))
      return false;
  }
  return !destroysBetween(function, from, to, ast);
}

class TargetFinder {
public:
  TargetFinder(const FunctionOperations &ops, size_t at, const HeldStatement &held,
               TranslationUnitContext &context)
      : ops_(ops), at_(at), held_(held), context_(context), ast_(context.ast()),
        sm_(ast_.getSourceManager()), function_(*ops.function) {}

  /// The targets for the pending work (work no earlier device-wide wait
  /// covers); work whose stream cannot be named is left to the judgement.
  std::vector<WaitTarget> find() {
    std::vector<WaitTarget> targets;
    const StreamOperation &sync = ops_.operations[at_];
    for (size_t i = 0; i < ops_.operations.size(); ++i) {
      const StreamOperation &op = ops_.operations[i];
      if (i == at_ || op.effect != OperationEffect::Enqueue || !pending(i))
        continue;
      std::optional<WaitTarget> target = targetOf(i, op, sync);
      if (!target)
        continue;
      auto known = llvm::find_if(targets, [&](const WaitTarget &t) { return t.same(*target); });
      if (known == targets.end()) {
        target->operations.push_back(i);
        targets.push_back(std::move(*target));
      } else {
        known->operations.push_back(i);
      }
    }
    return targets;
  }

private:
  bool unconditionalWait(size_t j) const {
    const StreamOperation &op = ops_.operations[j];
    return op.effect == OperationEffect::HostWaitsAll &&
           llvm::all_of(op.conditions, [&](const clang::Stmt *c) {
             return llvm::is_contained(ops_.operations[at_].conditions, c);
           });
  }

  /// Not covered by an unconditional device-wide wait between it and the
  /// wait (round the loop for work after the wait).
  bool pending(size_t i) const {
    const StreamOperation &sync = ops_.operations[at_];
    if (i < at_) {
      for (size_t j = i + 1; j < at_; ++j)
        if (unconditionalWait(j))
          return false;
      return true;
    }
    if (sync.loops.empty() || !llvm::is_contained(ops_.operations[i].loops, sync.loops.back()))
      return false; // after the wait, never before it
    for (size_t j = i + 1; j < ops_.operations.size(); ++j)
      if (llvm::is_contained(ops_.operations[j].loops, sync.loops.back()) && unconditionalWait(j))
        return false;
    for (size_t j = 0; j < at_; ++j)
      if (llvm::is_contained(ops_.operations[j].loops, sync.loops.back()) && unconditionalWait(j))
        return false;
    return true;
  }

  clang::SourceLocation begin(const clang::Stmt &stmt) const {
    return sm_.getExpansionLoc(stmt.getBeginLoc());
  }

  /// Where the names must keep their meaning for the work at `i`: from the
  /// work (or the outermost loop around it that does not hold the wait) to
  /// the wait. Work after the wait (the previous iteration's) needs the
  /// whole loop both are in. Nullopt when some run of the work may not be
  /// followed by a run of the wait (the wait is in a loop or branch the
  /// work is not in).
  std::optional<std::pair<clang::SourceLocation, clang::SourceLocation>>
  region(size_t i, const StreamOperation &op, const StreamOperation &sync) const {
    clang::SourceLocation to = sm_.getExpansionLoc(held_.statement->getEndLoc());
    if (i > at_) {
      const clang::Stmt *outer = sync.loops.back();
      return std::make_pair(begin(*outer), sm_.getExpansionLoc(outer->getEndLoc()));
    }
    for (const clang::Stmt *condition : sync.conditions)
      if (!llvm::is_contained(op.conditions, condition))
        return std::nullopt;
    clang::SourceLocation from = begin(*op.node);
    for (const clang::Stmt *loop : op.loops)
      if (!llvm::is_contained(sync.loops, loop))
        from = begin(*loop);
    return std::make_pair(from, to);
  }

  std::optional<WaitTarget> targetOf(size_t i, const StreamOperation &op,
                                     const StreamOperation &sync) const {
    const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node);
    std::optional<StreamArgumentSite> site = call ? streamArgumentOf(*call) : std::nullopt;
    auto where = region(i, op, sync);
    if (!site || !where)
      return std::nullopt;
    const clang::Expr *argument = site->argument->IgnoreParenImpCasts();
    const clang::Stmt &wait = *held_.statement;
    WaitTarget target;
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(argument)) {
      const auto *variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!variable || !isStreamType(variable->getType()) || !visibleAt(*variable, wait, ast_) ||
          !variableUntouched(*variable, function_, where->first, where->second, ast_))
        return std::nullopt;
      target.variable = variable;
      target.wait = "cudaStreamSynchronize(" + variable->getNameAsString() + ")";
      return target;
    }
    const auto *subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(argument);
    const auto *base = subscript ? llvm::dyn_cast<clang::DeclRefExpr>(
                                       subscript->getBase()->IgnoreParenImpCasts())
                                 : nullptr;
    const auto *array = base ? llvm::dyn_cast<clang::VarDecl>(base->getDecl()) : nullptr;
    if (!array || !visibleAt(*array, wait, ast_))
      return std::nullopt;
    target.variable = array;
    if (std::optional<llvm::APSInt> k = subscript->getIdx()->getIntegerConstantExpr(ast_)) {
      // a[K]: the text as written, if it means the same at the wait.
      clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
          clang::CharSourceRange::getTokenRange(subscript->getSourceRange()), sm_,
          ast_.getLangOpts());
      if (range.isInvalid() || !namesVisibleAt(subscript->getIdx(), wait, ast_) ||
          !arrayUntouched(*array, function_, where->first, where->second, ast_))
        return std::nullopt;
      target.element = *k;
      target.wait = "cudaStreamSynchronize(" +
                    clang::Lexer::getSourceText(range, sm_, ast_.getLangOpts()).str() + ")";
      return target;
    }
    return loopTarget(*call, op, *array, target);
  }

  /// `a[i]` issued in `for (H)`, a statement of the wait's block before it:
  /// `for (H) cudaStreamSynchronize(a[i]);` (rule 8's conditions).
  std::optional<WaitTarget> loopTarget(const clang::CallExpr &call, const StreamOperation &op,
                                       const clang::VarDecl &array, WaitTarget target) const {
    auto [base, index] = subscriptStream(call);
    const auto *loop =
        op.loops.empty() ? nullptr : llvm::dyn_cast<clang::ForStmt>(op.loops.front());
    if (base != &array || !loop || countingVariable(*loop) != index ||
        llvm::find(held_.block->body(), loop) == held_.block->body_end() ||
        !sm_.isBeforeInTranslationUnit(loop->getEndLoc(), held_.statement->getBeginLoc()) ||
        loop->getForLoc().isMacroID() || loop->getRParenLoc().isMacroID())
      return std::nullopt;
    clang::SourceLocation from = begin(*loop);
    const auto *condition = llvm::cast<clang::BinaryOperator>(loop->getCond());
    auto stable = [&](const clang::Expr *bound) {
      bound = bound->IgnoreParenImpCasts();
      if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bound))
        if (const auto *variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
          return stableFrom(*variable, function_, from, ast_);
      return bound->isIntegerConstantExpr(ast_);
    };
    if (!stable(index->getInit()) || !stable(condition->getRHS()) ||
        !arrayUntouched(array, function_, from,
                        sm_.getExpansionLoc(held_.statement->getEndLoc()), ast_))
      return std::nullopt;
    std::vector<const clang::DeclRefExpr *> uses;
    referencesTo(loop->getBody(), index->getCanonicalDecl(), uses);
    if (llvm::any_of(uses, [&](const clang::DeclRefExpr *use) { return !isRead(*use, ast_); }))
      return std::nullopt;
    clang::CharSourceRange header = clang::CharSourceRange::getCharRange(
        loop->getForLoc(), loop->getRParenLoc().getLocWithOffset(1));
    target.loop = loop;
    target.wait = clang::Lexer::getSourceText(header, sm_, ast_.getLangOpts()).str() + " " +
                  "cudaStreamSynchronize(" + array.getNameAsString() + "[" +
                  index->getNameAsString() + "])";
    return target;
  }

  const FunctionOperations &ops_;
  size_t at_;
  const HeldStatement &held_;
  TranslationUnitContext &context_;
  clang::ASTContext &ast_;
  const clang::SourceManager &sm_;
  const clang::FunctionDecl &function_;
};

} // namespace

std::optional<NarrowedWaitFix> namedStreamsWaitFix(const clang::CallExpr &sync,
                                                   TranslationUnitContext &context,
                                                   bool perThreadBuild) {
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function || !function->getBody())
    return std::nullopt;
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  std::optional<size_t> at;
  for (size_t i = 0; i < ops.operations.size(); ++i)
    if (ops.operations[i].node == &sync)
      at = i;
  std::optional<HeldStatement> held = heldStatement(sync, context);
  if (!at || !held)
    return std::nullopt;
  std::vector<WaitTarget> targets = TargetFinder(ops, *at, *held, context).find();
  if (targets.empty())
    return std::nullopt;
  // A stream parameter may be the legacy stream in every call: the whole
  // program decides that for one target (rule 7), not for several.
  if (targets.size() > 1 && llvm::any_of(targets, [](const WaitTarget &t) {
        return llvm::isa<clang::ParmVarDecl>(t.variable) && isStreamType(t.variable->getType());
      }))
    return std::nullopt;
  std::vector<std::string> names = {"cudaStreamSynchronize"};
  for (const WaitTarget &target : targets) {
    names.push_back(target.variable->getNameAsString());
    if (target.loop)
      names.push_back(countingVariable(*target.loop)->getNameAsString());
  }
  if (declaresAny(held->statement, names))
    return std::nullopt;
  const clang::SourceManager &sm = context.sources();
  std::string separator = ";\n" + lineIndentation(held->range.getBegin(), sm);
  if (!beginsLine(held->range.getBegin(), sm))
    separator = "; ";
  std::string replacement, described;
  for (const WaitTarget &target : targets) {
    std::string call = target.wait;
    std::string prefix;
    if (target.loop) { // "for (H) cudaStreamSynchronize(a[i])": the header before the statement
      size_t split = call.rfind(" cudaStreamSynchronize(");
      prefix = call.substr(0, split + 1);
      call = call.substr(split + 1);
    }
    replacement += (replacement.empty() ? "" : separator) + prefix + withCall(*held, call);
    described += (described.empty() ? "" : "; ") + target.wait;
  }
  NarrowedWaitFix narrowed;
  narrowed.target = targets.front().variable;
  narrowed.fix.description = "wait only for the streams its pending work is on (" + described + ";)";
  FixEdits edits(context, narrowed.fix);
  if (!edits.add(held->range, replacement))
    return std::nullopt;
  narrowed.judge = [&sync, &context, perThreadBuild,
                    targets = std::move(targets)](const OrderingAssumption &assume) {
    const clang::FunctionDecl *function = context.enclosingFunction(sync);
    FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
    const clang::Decl *pseudo = targets.front().variable->getCanonicalDecl();
    std::vector<bool> covered(ops.operations.size(), false);
    for (const WaitTarget &target : targets)
      for (size_t i : target.operations)
        if (i < covered.size())
          covered[i] = true;
    std::optional<size_t> at;
    for (size_t i = 0; i < ops.operations.size(); ++i) {
      StreamOperation &op = ops.operations[i];
      if (op.node == &sync)
        at = i;
      if (op.effect != OperationEffect::Enqueue)
        continue;
      if (covered[i]) {
        op.stream = {OrderingStream::Variable, pseudo};
      } else if (op.stream.kind == OrderingStream::Variable &&
                 llvm::any_of(targets, [&](const WaitTarget &t) {
                   return t.variable->getCanonicalDecl() == op.stream.variable;
                 })) {
        op.stream = {OrderingStream::Unknown, nullptr}; // not known to be the same stream
      }
    }
    if (!at) {
      OrderingVerdict verdict;
      verdict.brokenBy = "the ordering around it could not be analyzed";
      return verdict;
    }
    return walkOrdering(ops, *at, targets.front().variable, OrderingMode::Narrow, context, assume);
  };
  return narrowed;
}

} // namespace streamlint
