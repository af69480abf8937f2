// The walks behind OrderingSafety.h. From the work being moved (or the wait
// being narrowed), walk back over what was issued before it and check that it
// is still ordered before; walk forward over what is issued after it and
// check that what the legacy stream ordered after it still is, inserting
// cudaStreamSynchronize(target) before the first operation that is not. In a
// loop the walks also go round once more: the next iteration's earlier
// operations come after this iteration's work.
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/SourceEdits.h"
#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "api/CudaApiTable.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>

namespace streamlint {
namespace {

enum class Mode { Move, Narrow };

/// Outcome of one walk: safe, safe with a wait inserted, or broken.
struct WalkResult {
  bool safe = true;
  std::optional<TextEdit> wait;
  std::string waitBefore; // the operation the wait precedes
  std::string broken;
};

class OrderingWalker {
public:
  OrderingWalker(const FunctionOperations &ops, size_t at, const clang::ValueDecl &target,
                 Mode mode, TranslationUnitContext &context, const OrderingAssumption &assume)
      : ops_(ops.operations), isMain_(ops.isMain), function_(*ops.function), at_(at),
        targetDecl_(target), mode_(mode), context_(context), assume_(assume) {
    target_.kind = OrderingStream::Variable;
    target_.variable = target.getCanonicalDecl();
    targetBlocking_ = assume.target ? *assume.target
                                    : blockingOf(target_.variable, function_, context.ast());
    const StreamOperation &work = ops_[at];
    if (!work.loops.empty()) {
      const clang::Stmt *outer = work.loops.back();
      for (size_t i = 0; i < ops_.size(); ++i)
        if (llvm::is_contained(ops_[i].loops, outer)) {
          loopBegin_ = loopBegin_ ? loopBegin_ : i;
          loopEnd_ = i;
        }
    }
  }

  OrderingVerdict run() {
    std::vector<WalkResult> results;
    bool inLoop = !ops_[at_].loops.empty();
    size_t lo = inLoop ? *loopBegin_ : 0, hi = inLoop ? loopEnd_ : ops_.size() - 1;
    // After: this iteration to the end of the loop, then round again (in a
    // loop) or on to the end of the function and the callers. Walked first:
    // the later operation that needs the old order is the likelier problem.
    if (mode_ == Mode::Move) {
      std::vector<size_t> after = range(at_ + 1, hi + 1, false);
      if (inLoop) {
        std::vector<size_t> again = after;
        append(again, range(lo, at_, false));
        results.push_back(walkForward(again));
      }
      append(after, range(hi + 1, ops_.size(), false));
      results.push_back(walkForward(after));
    }
    // Before: this iteration back to the loop, then the previous iteration
    // (in a loop) or everything before the loop and the callers.
    std::vector<size_t> back = range(at_, lo, /*down=*/true);
    if (inLoop) {
      std::vector<size_t> previous = back;
      append(previous, range(hi + 1, at_ + 1, true));
      results.push_back(walkBack(previous, /*entry=*/false));
    }
    append(back, lo > 0 ? range(lo, 0, true) : std::vector<size_t>{});
    results.push_back(walkBack(back, /*entry=*/true));
    OrderingVerdict verdict;
    verdict.keepsOrdering = true;
    for (WalkResult &result : results) {
      if (!result.safe) {
        verdict.keepsOrdering = false;
        verdict.brokenBy = result.broken;
        verdict.waits.clear();
        return verdict;
      }
      if (result.wait && llvm::none_of(verdict.waits, [&](const TextEdit &e) {
            return e.offset == result.wait->offset && e.file == result.wait->file;
          })) {
        verdict.waits.push_back(*result.wait);
        verdict.waitNote += (verdict.waitNote.empty() ? "" : " and ") + result.waitBefore;
      }
    }
    return verdict;
  }

  const std::vector<StreamOperation> &ops() const { return ops_; }

private:
  /// [from, to) upwards, or (to, from) downwards when `down` (from excluded).
  static std::vector<size_t> range(size_t from, size_t to, bool down) {
    std::vector<size_t> indexes;
    if (down)
      for (size_t i = from; i > to; --i)
        indexes.push_back(i - 1);
    else
      for (size_t i = from; i < to; ++i)
        indexes.push_back(i);
    return indexes;
  }
  static void append(std::vector<size_t> &to, const std::vector<size_t> &more) {
    to.insert(to.end(), more.begin(), more.end());
  }

  /// Runs whenever the work does (no branch or loop the work is not in).
  bool unconditional(const StreamOperation &op) const {
    return llvm::all_of(op.conditions, [&](const clang::Stmt *condition) {
      return llvm::is_contained(ops_[at_].conditions, condition);
    });
  }

  std::string streamText(const StreamOperation &op) const {
    switch (op.stream.kind) {
    case OrderingStream::Legacy: return " (legacy default stream)";
    case OrderingStream::PerThread: return " (per-thread default stream)";
    case OrderingStream::Variable:
      if (const auto *named = llvm::dyn_cast<clang::NamedDecl>(op.stream.variable))
        return " (stream '" + named->getNameAsString() + "')";
      return "";
    case OrderingStream::Unknown: return op.effect == OperationEffect::Enqueue ? " (unknown stream)" : "";
    }
    return "";
  }
  std::string describe(const StreamOperation &op) const {
    return "the " + op.what + " at " +
           describeLine(*op.node, function_, context_.sources()) + streamText(op);
  }
  std::string name() const { return "'" + targetDecl_.getNameAsString() + "'"; }
  std::string functionName() const { return "'" + function_.getNameAsString() + "'"; }

  std::string whyTargetLoses() const {
    switch (targetBlocking_) {
    case StreamBlocking::NonBlocking:
      return name() + " is created with cudaStreamNonBlocking, so nothing would order them";
    case StreamBlocking::Unknown:
      return name() + " is not created in " + functionName() +
             " (it may be non-blocking), so nothing would be known to order them";
    case StreamBlocking::Blocking:
      return "a blocking stream such as " + name() +
             " orders only legacy-stream work after it";
    }
    return "";
  }

  WalkResult broken(std::string why) const {
    WalkResult result;
    result.safe = false;
    result.broken = std::move(why);
    return result;
  }

  WalkResult walkBack(const std::vector<size_t> &path, bool entry) const {
    std::vector<OrderingStream> streams = {target_};
    bool allBlocking = false;
    auto addStream = [&](const OrderingStream &stream) {
      if (llvm::none_of(streams, [&](const OrderingStream &s) { return s.same(stream); }))
        streams.push_back(stream);
    };
    // The moved work on a blocking stream waits for earlier legacy work.
    if (mode_ == Mode::Move && targetBlocking_ == StreamBlocking::Blocking)
      addStream({OrderingStream::Legacy, nullptr});
    auto propagate = [&](const StreamOperation &op) { // `op` is known done before
      if (op.stream.kind == OrderingStream::Legacy)
        allBlocking = true;
      else if (op.blocking == StreamBlocking::Blocking)
        addStream({OrderingStream::Legacy, nullptr});
    };
    const char *subject = mode_ == Mode::Move ? "this work would no longer wait for "
                                              : "the host would no longer wait for ";
    for (size_t index : path) {
      const StreamOperation &op = ops_[index];
      bool always = unconditional(op);
      switch (op.effect) {
      case OperationEffect::Neutral:
      case OperationEffect::Return:
        break;
      case OperationEffect::HostWaitsAll:
        if (always)
          return {};
        break;
      case OperationEffect::HostWaitsStream:
        if (always)
          addStream(op.stream);
        break;
      case OperationEffect::Enqueue: {
        bool covered = llvm::any_of(streams, [&](const OrderingStream &s) { return s.same(op.stream); }) ||
                       (allBlocking && (op.blocking == StreamBlocking::Blocking ||
                                        (mode_ == Mode::Move && op.blocking == StreamBlocking::Unknown)));
        if ((covered || op.hostWaits) && always) {
          propagate(op);
          break;
        }
        if (covered)
          break;
        bool oldEdge = mode_ == Mode::Narrow || op.blocking != StreamBlocking::NonBlocking;
        if (oldEdge)
          return broken(subject + describe(op) + ", issued before it");
        break;
      }
      case OperationEffect::Opaque:
        if (!(mode_ == Mode::Move && allBlocking))
          return broken(subject + describe(op) + ", which may issue CUDA work on any stream");
        break;
      }
    }
    bool legacyCovered = allBlocking || llvm::any_of(streams, [](const OrderingStream &s) {
                           return s.kind == OrderingStream::Legacy;
                         });
    bool callersCovered = assume_.pending == ordering::NothingPending ||
                          (assume_.pending == ordering::LegacyPending && legacyCovered);
    if (entry && !isMain_ && !(mode_ == Mode::Move && allBlocking) && !callersCovered)
      return broken(std::string(subject) + "work the callers of " + functionName() +
                    " issued before calling it (no wait in " + functionName() +
                    " before this point covers it)");
    return {};
  }

  WalkResult walkForward(const std::vector<size_t> &path) const {
    bool blockingCovered = false; // a later legacy op waited for the work
    bool blockingTarget = targetBlocking_ == StreamBlocking::Blocking;
    for (size_t index : path) {
      const StreamOperation &op = ops_[index];
      bool always = unconditional(op);
      switch (op.effect) {
      case OperationEffect::Neutral:
        break;
      case OperationEffect::HostWaitsAll:
        if (always)
          return {};
        break;
      case OperationEffect::HostWaitsStream:
        if (op.stream.same(target_) && always)
          return {};
        if (op.stream.kind == OrderingStream::Legacy) {
          if (blockingCovered && always)
            return {};
          if (!blockingCovered)
            return dependent(op);
        }
        break;
      case OperationEffect::Enqueue:
        if (op.stream.same(target_)) {
          if (op.hostWaits && always)
            return {};
          break;
        }
        if (op.stream.kind == OrderingStream::Legacy) {
          if (!blockingTarget)
            return dependent(op);
          if (always)
            blockingCovered = true;
          if (op.hostWaits && always)
            return {};
          break;
        }
        if (op.blocking != StreamBlocking::NonBlocking && !blockingCovered)
          return dependent(op);
        break;
      case OperationEffect::Opaque:
        if (!blockingCovered)
          return dependent(op);
        break;
      case OperationEffect::Return:
        if (isMain_ || blockingCovered || assume_.next == ordering::NextWaits ||
            (assume_.next == ordering::NextLegacyWork && blockingTarget))
          return {};
        return broken(functionName() + " returns to its callers with this work possibly "
                      "still running, and their later work relied on the legacy stream "
                      "to order it after this work; " + whyTargetLoses());
      }
    }
    return {};
  }

  /// `op` relied on the old ordering: insert a wait before it, or give up.
  WalkResult dependent(const StreamOperation &op) const {
    std::string what = describe(op);
    if (std::optional<TextEdit> wait = waitBefore(op)) {
      WalkResult result;
      result.wait = std::move(wait);
      result.waitBefore = what;
      return result;
    }
    return broken(what + " relied on the legacy stream to order it after this work; " +
                  whyTargetLoses() + " (and no wait can be inserted before it)");
  }

  std::optional<TextEdit> waitBefore(const StreamOperation &op) const;

  const std::vector<StreamOperation> &ops_;
  bool isMain_;
  const clang::FunctionDecl &function_;
  size_t at_;
  const clang::ValueDecl &targetDecl_;
  OrderingStream target_;
  StreamBlocking targetBlocking_ = StreamBlocking::Unknown;
  Mode mode_;
  TranslationUnitContext &context_;
  OrderingAssumption assume_;
  std::optional<size_t> loopBegin_;
  size_t loopEnd_ = 0;
};

/// `cudaStreamSynchronize(target);` on its own line before the statement
/// holding `op`, when that statement sits in a block, does not contain the
/// work itself, and `target` is in scope there.
std::optional<TextEdit> OrderingWalker::waitBefore(const StreamOperation &op) const {
  if (op.effect == OperationEffect::Return)
    return std::nullopt;
  clang::ASTContext &ast = context_.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::DynTypedNode child = clang::DynTypedNode::create(*op.node);
  const clang::Stmt *statement = nullptr;
  std::vector<const clang::Stmt *> blocks;
  for (int guard = 0; guard < 256; ++guard) {
    auto parents = ast.getParents(child);
    if (parents.empty() || parents[0].get<clang::LambdaExpr>())
      return std::nullopt;
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      break;
    if (llvm::isa<clang::CompoundStmt>(parent)) {
      if (!statement)
        statement = child.get<clang::Stmt>();
      blocks.push_back(parent);
    }
    child = parents[0];
  }
  if (!statement)
    return std::nullopt;
  clang::SourceLocation workBegin = sm.getExpansionLoc(ops_[at_].node->getBeginLoc());
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(statement->getSourceRange()), sm, ast.getLangOpts());
  if (range.isInvalid() ||
      (!sm.isBeforeInTranslationUnit(workBegin, range.getBegin()) &&
       sm.isBeforeInTranslationUnit(workBegin, range.getEnd())))
    return std::nullopt; // the statement holds the work too
  if (const auto *var = llvm::dyn_cast<clang::VarDecl>(&targetDecl_);
      var && !llvm::isa<clang::ParmVarDecl>(var)) {
    if (!sm.isBeforeInTranslationUnit(sm.getExpansionLoc(var->getLocation()), range.getBegin()))
      return std::nullopt;
    auto declParents = ast.getParents(*var);
    const clang::Stmt *declBlock = nullptr;
    if (!declParents.empty())
      if (const auto *declStmt = declParents[0].get<clang::DeclStmt>()) {
        auto up = ast.getParents(*declStmt);
        declBlock = up.empty() ? nullptr : up[0].get<clang::CompoundStmt>();
      }
    if (!declBlock || !llvm::is_contained(blocks, declBlock))
      return std::nullopt;
  }
  std::string call = "cudaStreamSynchronize(" + targetDecl_.getNameAsString() + ");";
  bool ownLine = beginsLine(range.getBegin(), sm);
  clang::SourceLocation at = ownLine ? lineBegin(range.getBegin(), sm) : range.getBegin();
  return context_.edit(clang::CharSourceRange::getCharRange(at, at),
                       ownLine ? lineIndentation(at, sm) + call + "\n" : call + " ");
}

std::optional<size_t> indexOf(const FunctionOperations &ops, const clang::Stmt &node) {
  for (size_t i = 0; i < ops.operations.size(); ++i)
    if (ops.operations[i].node == &node)
      return i;
  return std::nullopt;
}

/// Work already on the target has the assumed blocking too.
void assumeTargetBlocking(FunctionOperations &ops, const clang::ValueDecl &target,
                          const OrderingAssumption &assume) {
  if (!assume.target)
    return;
  for (StreamOperation &op : ops.operations)
    if (op.stream.kind == OrderingStream::Variable && op.stream.variable == target.getCanonicalDecl())
      op.blocking = *assume.target;
}

/// The cudaStreamDestroy(target) of `function` that comes before `site`
/// (or repeats with it in a loop): work moved there, or a wait narrowed to
/// it, would use a destroyed stream (graphConditionalNodes on an H100:
/// cudaErrorContextIsDestroyed). Null when there is none.
const clang::CallExpr *destroyedBefore(const clang::FunctionDecl &function,
                                       const clang::ValueDecl &target, const clang::Stmt &site,
                                       TranslationUnitContext &context) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::Decl *target;
    std::vector<const clang::CallExpr *> found;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (!callee || !callee->getIdentifier() || call->getNumArgs() < 1)
        return true;
      const api::ApiInfo *row = api::findApi(callee->getName());
      if (!row || row->lifecycle != api::StreamLifecycle::Destroys)
        return true;
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
      if (ref && ref->getDecl()->getCanonicalDecl() == target)
        found.push_back(call);
      return true;
    }
  } finder;
  finder.target = target.getCanonicalDecl();
  if (!function.hasBody())
    return nullptr;
  finder.TraverseStmt(function.getBody());
  const clang::SourceManager &sm = context.sources();
  clang::SourceLocation at = sm.getExpansionLoc(site.getBeginLoc());
  for (const clang::CallExpr *destroy : finder.found) {
    clang::SourceLocation where = sm.getExpansionLoc(destroy->getBeginLoc());
    bool inLoop = false;
    for (clang::DynTypedNode node = clang::DynTypedNode::create(*destroy);;) {
      auto parents = context.ast().getParents(node);
      if (parents.empty() || !parents[0].get<clang::Stmt>())
        break;
      const clang::Stmt *parent = parents[0].get<clang::Stmt>();
      inLoop = inLoop || llvm::isa<clang::ForStmt, clang::WhileStmt, clang::CXXForRangeStmt,
                                   clang::DoStmt>(parent);
      node = parents[0];
    }
    if (inLoop || sm.isBeforeInTranslationUnit(where, at))
      return destroy;
  }
  return nullptr;
}

OrderingVerdict destroyedVerdict(const clang::CallExpr &destroy, const clang::ValueDecl &target,
                                 const clang::FunctionDecl &function,
                                 TranslationUnitContext &context) {
  OrderingVerdict verdict;
  verdict.brokenBy = "'" + target.getNameAsString() + "' is destroyed (cudaStreamDestroy at " +
                     describeLine(destroy, function, context.sources()) +
                     ") before this point, so the work would be issued to a destroyed stream";
  return verdict;
}

OrderingVerdict notFound() {
  OrderingVerdict verdict;
  verdict.brokenBy = "the ordering around it could not be analyzed";
  return verdict;
}

/// Inside the callee, everything must use the stream parameter (or wait).
std::string calleeProblem(const clang::CallExpr &call, const clang::ParmVarDecl &parameter,
                          TranslationUnitContext &context, bool perThreadBuild) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  const clang::FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->hasBody())
    return "the body of the called function is not visible";
  unsigned index = parameter.getFunctionScopeIndex();
  if (index >= definition->getNumParams())
    return "the called function's stream parameter could not be found";
  FunctionOperations inner = operationsOf(*definition, context.ast(), perThreadBuild);
  const clang::Decl *param = definition->getParamDecl(index)->getCanonicalDecl();
  for (const StreamOperation &op : inner.operations) {
    bool onParameter = op.stream.kind == OrderingStream::Variable && op.stream.variable == param;
    if (op.effect == OperationEffect::Neutral || op.effect == OperationEffect::Return ||
        op.effect == OperationEffect::HostWaitsAll ||
        ((op.effect == OperationEffect::Enqueue || op.effect == OperationEffect::HostWaitsStream) &&
         onParameter))
      continue;
    return "inside '" + definition->getNameAsString() + "', the " + op.what + " at " +
           describeLine(*op.node, *definition, context.sources()) +
           " does not use the stream parameter and relied on the legacy stream's ordering";
  }
  return "";
}

} // namespace

OrderingVerdict checkMoveToStream(llvm::ArrayRef<MovedCall> group, const clang::VarDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume) {
  if (group.empty())
    return notFound();
  const clang::FunctionDecl *function = context.enclosingFunction(*group.front().call);
  if (!function)
    return notFound();
  for (const MovedCall &moved : group)
    if (const clang::CallExpr *destroy = destroyedBefore(*function, target, *moved.call, context))
      return destroyedVerdict(*destroy, target, *function, context);
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  assumeTargetBlocking(ops, target, assume);
  // The other moved calls are on the target too once --fix is done.
  std::vector<size_t> members;
  for (const MovedCall &moved : group) {
    std::optional<size_t> at = indexOf(ops, *moved.call);
    if (!at)
      return notFound();
    members.push_back(*at);
    StreamOperation &op = ops.operations[*at];
    op.effect = OperationEffect::Enqueue;
    op.stream = {OrderingStream::Variable, target.getCanonicalDecl()};
    op.blocking = assume.target ? *assume.target
                                : blockingOf(op.stream.variable, *function, context.ast());
    op.hostWaits = false;
  }
  OrderingVerdict verdict;
  verdict.keepsOrdering = true;
  for (size_t m = 0; m < group.size(); ++m) {
    const StreamOperation &op = ops.operations[members[m]];
    std::string which = group.size() > 1 ? "moving the " + op.what + " at " +
                                               describeLine(*op.node, *function, context.sources()) +
                                               " with it: "
                                         : "";
    if (group[m].calleeParameter) {
      std::string problem =
          calleeProblem(*group[m].call, *group[m].calleeParameter, context, perThreadBuild);
      if (!problem.empty()) {
        OrderingVerdict failed;
        failed.brokenBy = which + problem;
        return failed;
      }
    }
    OrderingVerdict one = OrderingWalker(ops, members[m], target, Mode::Move, context, assume).run();
    if (!one.keepsOrdering) {
      one.brokenBy = which + one.brokenBy;
      return one;
    }
    for (TextEdit &wait : one.waits)
      if (llvm::none_of(verdict.waits, [&](const TextEdit &e) { return e.offset == wait.offset; })) {
        verdict.waits.push_back(std::move(wait));
        verdict.waitNote += (verdict.waitNote.empty() ? "" : " and ") + one.waitNote;
      }
  }
  return verdict;
}

void applyOrderingVerdict(FixIt &fix, const OrderingVerdict &verdict) {
  if (!verdict.keepsOrdering) {
    fix.description += "; not applied by --fix: " + verdict.brokenBy;
    fix.applicable = false;
    return;
  }
  if (verdict.waits.empty())
    return;
  fix.description += ", and wait for it (cudaStreamSynchronize) before " + verdict.waitNote +
                     ", which relied on the legacy stream's ordering";
  fix.edits.insert(fix.edits.end(), verdict.waits.begin(), verdict.waits.end());
}

OrderingVerdict checkNarrowedWait(const clang::CallExpr &sync, const clang::ValueDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume) {
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function)
    return notFound();
  if (const clang::CallExpr *destroy = destroyedBefore(*function, target, sync, context))
    return destroyedVerdict(*destroy, target, *function, context);
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  assumeTargetBlocking(ops, target, assume);
  std::optional<size_t> at = indexOf(ops, sync);
  if (!at)
    return notFound();
  return OrderingWalker(ops, *at, target, Mode::Narrow, context, assume).run();
}

} // namespace streamlint
