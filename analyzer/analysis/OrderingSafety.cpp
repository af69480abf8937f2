// OrderingSafety.h's entry points: the function's operations with the moved
// calls put on their target, then the walks of OrderingWalk.h from each.
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/CallerWalk.h"
#include "analyzer/analysis/NarrowedWaitFix.h"
#include "analyzer/analysis/OrderingPreconditions.h"
#include "analyzer/analysis/OrderingWalk.h"
#include "analyzer/analysis/StreamOperations.h"

#include <optional>

namespace streamlint {
namespace {

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

OrderingVerdict notFound() {
  OrderingVerdict verdict;
  verdict.brokenBy = "the ordering around it could not be analyzed";
  return verdict;
}

} // namespace

namespace {

/// Puts the calls of `group` on `target` (null: the per-thread default
/// stream) in `ops`, as --fix leaves them; their indexes (nullopt when one
/// is not among the operations).
std::optional<std::vector<size_t>> moveGroup(FunctionOperations &ops,
                                             llvm::ArrayRef<MovedCall> group,
                                             const clang::VarDecl *target,
                                             const clang::FunctionDecl &function,
                                             TranslationUnitContext &context,
                                             const OrderingAssumption &assume) {
  std::vector<size_t> members;
  for (const MovedCall &moved : group) {
    std::optional<size_t> at = indexOf(ops, *moved.call);
    if (!at)
      return std::nullopt;
    members.push_back(*at);
    StreamOperation &op = ops.operations[*at];
    op.effect = OperationEffect::Enqueue;
    op.hostWaits = false;
    if (!target) {
      op.stream = {OrderingStream::PerThread, nullptr};
      op.blocking = StreamBlocking::Blocking;
      continue;
    }
    op.stream = {OrderingStream::Variable, target->getCanonicalDecl()};
    op.blocking = assume.target ? *assume.target
                                : blockingOf(op.stream.variable, function, context.ast());
  }
  // A wait for an event a moved call records waits for the target now.
  for (StreamOperation &op : ops.operations)
    if (op.recordedBy && llvm::any_of(group, [&](const MovedCall &m) { return m.call == op.recordedBy; })) {
      op.stream = ops.operations[members.front()].stream;
      op.blocking = ops.operations[members.front()].blocking;
    }
  return members;
}

/// Each moved call of `group` (at `members` of `ops`, already moved) judged
/// with the others on the target: one verdict, with the waits of all.
OrderingVerdict judgeMoves(const FunctionOperations &ops, llvm::ArrayRef<MovedCall> group,
                           llvm::ArrayRef<size_t> members, const clang::VarDecl *target,
                           const clang::FunctionDecl &function, TranslationUnitContext &context,
                           bool perThreadBuild, const OrderingAssumption &assume) {
  OrderingVerdict verdict;
  verdict.keepsOrdering = true;
  for (size_t m = 0; m < group.size(); ++m) {
    const StreamOperation &op = ops.operations[members[m]];
    std::string which = group.size() > 1 ? "moving the " + op.what + " at " +
                                               describeLine(*op.node, function, context.sources()) +
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
    OrderingVerdict one = walkOrdering(ops, members[m], target, OrderingMode::Move, context, assume);
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

/// checkMoveToStream and checkMoveToPerThreadStream: `target` null is the
/// per-thread default stream.
OrderingVerdict checkMove(llvm::ArrayRef<MovedCall> group, const clang::VarDecl *target,
                          TranslationUnitContext &context, bool perThreadBuild,
                          const OrderingAssumption &assume) {
  if (group.empty())
    return notFound();
  const clang::FunctionDecl *function = context.enclosingFunction(*group.front().call);
  if (!function)
    return notFound();
  if (target)
    for (const MovedCall &moved : group)
      if (const clang::CallExpr *destroy = destroyedBefore(*function, *target, *moved.call, context))
        return destroyedVerdict(*destroy, *target, *function, context);
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  if (target)
    assumeTargetBlocking(ops, *target, assume);
  // The other moved calls are on the target too once --fix is done.
  std::optional<std::vector<size_t>> members =
      moveGroup(ops, group, target, *function, context, assume);
  if (!members)
    return notFound();
  OrderingVerdict verdict =
      judgeMoves(ops, group, *members, target, *function, context, perThreadBuild, assume);
  if (assume.describeFunctionAfter && target && llvm::isa<clang::ParmVarDecl>(target))
    verdict.onlyParameterAfter =
        onlyStreamParameterIfCallees(*function, ops.operations, userCallKeys(ops.operations),
                                     verdict.onlyParameterAfterCalls);
  return verdict;
}

} // namespace

OrderingVerdict checkMoveToStream(llvm::ArrayRef<MovedCall> group, const clang::VarDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume) {
  return checkMove(group, &target, context, perThreadBuild, assume);
}

OrderingVerdict checkMoveToPerThreadStream(llvm::ArrayRef<MovedCall> group,
                                           TranslationUnitContext &context,
                                           const OrderingAssumption &assume) {
  return checkMove(group, nullptr, context, /*perThreadBuild=*/false, assume);
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

namespace {

OrderingVerdict checkNarrowed(const clang::CallExpr &sync, const clang::ValueDecl *target,
                              TranslationUnitContext &context, bool perThreadBuild,
                              const OrderingAssumption &assume, bool workOnTarget) {
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function)
    return notFound();
  if (target)
    if (const clang::CallExpr *destroy = destroyedBefore(*function, *target, sync, context))
      return destroyedVerdict(*destroy, *target, *function, context);
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  if (target)
    assumeTargetBlocking(ops, *target, assume);
  std::optional<size_t> at = indexOf(ops, sync);
  if (!at)
    return notFound();
  return walkOrdering(ops, *at, target, OrderingMode::Narrow, context, assume, workOnTarget);
}

} // namespace

OrderingVerdict checkNarrowedWait(const clang::CallExpr &sync, const clang::ValueDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume) {
  return checkNarrowed(sync, &target, context, perThreadBuild, assume, false);
}

OrderingVerdict checkNarrowedWaitToPerThread(const clang::CallExpr &sync,
                                             TranslationUnitContext &context,
                                             bool perThreadBuild,
                                             const OrderingAssumption &assume) {
  return checkNarrowed(sync, nullptr, context, perThreadBuild, assume, false);
}

OrderingVerdict checkAsyncCopy(const clang::CallExpr &copy, const clang::ValueDecl *target,
                               TranslationUnitContext &context, bool perThreadBuild,
                               const OrderingAssumption &assume) {
  return checkNarrowed(copy, target, context, perThreadBuild, assume, true);
}

OrderingVerdict checkNarrowedWaitWithPerThreadMoves(const clang::CallExpr &sync,
                                                   llvm::ArrayRef<MovedCall> group,
                                                   llvm::ArrayRef<const clang::CallExpr *> asyncCopies,
                                                   TranslationUnitContext &context,
                                                   const OrderingAssumption &assume) {
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function || (group.empty() && asyncCopies.empty()))
    return notFound();
  FunctionOperations ops = operationsOf(*function, context.ast(), /*perThreadBuild=*/false);
  std::optional<size_t> at = indexOf(ops, sync);
  std::optional<std::vector<size_t>> members =
      moveGroup(ops, group, nullptr, *function, context, assume);
  if (!at || !members)
    return notFound();
  // Rule 9's rewrites: the copy on the per-thread stream, then a wait for it.
  std::vector<size_t> copies;
  for (const clang::CallExpr *copy : asyncCopies) {
    std::optional<size_t> index = indexOf(ops, *copy);
    if (!index)
      return notFound();
    copies.push_back(*index);
  }
  for (size_t index : copies) {
    StreamOperation &op = ops.operations[index];
    op.effect = OperationEffect::Enqueue;
    op.stream = {OrderingStream::PerThread, nullptr};
    op.blocking = StreamBlocking::Blocking;
    op.hostWaits = true;
  }
  // The wait, with the work moved and the copies rewritten.
  OrderingVerdict verdict = walkOrdering(ops, *at, nullptr, OrderingMode::Narrow, context, assume);
  if (!verdict.keepsOrdering)
    return verdict;
  // The copies and the moves, with the wait narrowed too.
  StreamOperation &wait = ops.operations[*at];
  wait.effect = OperationEffect::HostWaitsStream;
  wait.stream = {OrderingStream::PerThread, nullptr};
  wait.blocking = StreamBlocking::Blocking;
  for (size_t index : copies) {
    OrderingVerdict copy = walkOrdering(ops, index, nullptr, OrderingMode::Narrow, context, assume,
                                        /*workOnTarget=*/true);
    if (!copy.keepsOrdering)
      return copy;
  }
  if (group.empty())
    return verdict;
  verdict = judgeMoves(ops, group, *members, nullptr, *function, context, false, assume);
  if (verdict.keepsOrdering && !verdict.waits.empty()) {
    // default-stream's own fixes were judged with the device-wide wait; a
    // wait this one would need is not theirs.
    OrderingVerdict refused;
    refused.brokenBy = "the moved work would need a wait for cudaStreamPerThread before " +
                       verdict.waitNote + " once this wait is narrowed";
    return refused;
  }
  return verdict;
}

OrderingVerdict checkNarrowedWaitToStreams(const clang::CallExpr &sync, const clang::ValueDecl &array,
                                           llvm::function_ref<bool(const StreamOperation &)> onArray,
                                           TranslationUnitContext &context, bool perThreadBuild,
                                           const OrderingAssumption &assume) {
  const clang::FunctionDecl *function = context.enclosingFunction(sync);
  if (!function)
    return notFound();
  FunctionOperations ops = operationsOf(*function, context.ast(), perThreadBuild);
  // The work the new wait covers: on the array's streams, as if on one.
  for (StreamOperation &op : ops.operations)
    if (op.effect == OperationEffect::Enqueue && onArray(op)) {
      op.stream = {OrderingStream::Variable, array.getCanonicalDecl()};
      op.blocking = StreamBlocking::Unknown;
    }
  std::optional<size_t> at = indexOf(ops, sync);
  if (!at)
    return notFound();
  return walkOrdering(ops, *at, &array, OrderingMode::Narrow, context, assume);
}

} // namespace streamlint
