// The walks behind OrderingSafety.h. From the work being moved (or the wait
// being narrowed), walk back over what was issued before it and check that it
// is still ordered before; walk forward over what is issued after it and
// check that what the legacy stream ordered after it still is, inserting
// cudaStreamSynchronize(target) before the first operation that is not. In a
// loop the walks also go round once more: the next iteration's earlier
// operations come after this iteration's work.
#include "analyzer/analysis/OrderingWalk.h"
#include "analyzer/analysis/InsertedWait.h"
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/UserCallNeed.h"
#include "analyzer/analysis/WaitLoopCover.h"

#include "clang/AST/ExprCXX.h"

#include <optional>

namespace streamlint {
namespace {

using Mode = OrderingMode;

/// Outcome of one walk: safe, safe with a wait inserted, or broken.
struct WalkResult {
  bool safe = true;
  std::optional<TextEdit> wait;
  std::string waitBefore; // the operation the wait precedes
  std::string broken;
};

class OrderingWalker {
public:
  /// `target` null: the per-thread default stream, which every function
  /// has and which is blocking. `workOnTarget`: a narrowed wait that first
  /// issues the work itself on the target (rule 9's Async copy).
  OrderingWalker(const FunctionOperations &ops, size_t at, const clang::ValueDecl *target,
                 Mode mode, TranslationUnitContext &context, const OrderingAssumption &assume,
                 bool workOnTarget = false)
      : ops_(ops.operations), isMain_(ops.isMain), function_(*ops.function), at_(at),
        targetDecl_(target), mode_(mode), context_(context), assume_(assume),
        workOnTarget_(workOnTarget) {
    if (target) {
      target_.kind = OrderingStream::Variable;
      target_.variable = target->getCanonicalDecl();
      targetBlocking_ = assume.target ? *assume.target
                                      : blockingOf(target_.variable, function_, context.ast());
    } else {
      target_.kind = OrderingStream::PerThread;
      targetBlocking_ = StreamBlocking::Blocking;
    }
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
    verdict.assumedCallees = assumedCallees_;
    verdict.calleeNeeds = calleeNeeds_;
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
  std::string name() const {
    return targetDecl_ ? "'" + targetDecl_->getNameAsString() + "'" : "cudaStreamPerThread";
  }
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
    // The moved work (or the copy a narrowed wait first issues) on a
    // blocking stream waits for earlier legacy work.
    if ((mode_ == Mode::Move || workOnTarget_) && targetBlocking_ == StreamBlocking::Blocking)
      addStream({OrderingStream::Legacy, nullptr});
    auto propagate = [&](const StreamOperation &op) { // `op` is known done before
      if (op.stream.kind == OrderingStream::Legacy)
        allBlocking = true;
      else if (op.blocking == StreamBlocking::Blocking)
        addStream({OrderingStream::Legacy, nullptr});
    };
    std::vector<size_t> waitLoops; // cudaStreamSynchronize(a[j]) in a loop over j, walked
    const char *subject = mode_ == Mode::Move ? "this work would no longer wait for "
                                              : "the host would no longer wait for ";
    for (size_t index : path) {
      const StreamOperation &op = ops_[index];
      if (neverBefore(op, ops_[at_]))
        continue; // its branch ends the program
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
        // A wait loop over an array of streams the walk started outside of:
        // it covers an earlier loop with the same header (WaitLoopCover.h).
        else if (const clang::ForStmt *over = streamArrayLoop(op);
                 over && !llvm::is_contained(ops_[at_].loops, over))
          waitLoops.push_back(index);
        break;
      case OperationEffect::Enqueue: {
        const clang::ForStmt *issuing = streamArrayLoop(op);
        bool covered = llvm::any_of(streams, [&](const OrderingStream &s) { return s.same(op.stream); }) ||
                       (issuing && !llvm::is_contained(ops_[at_].loops, issuing) &&
                        llvm::any_of(waitLoops, [&](size_t w) {
                          return waitLoopCovers(ops_[w], op, function_);
                        })) ||
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
        if (onTarget(op, /*back=*/true))
          break; // done before whatever the target does later
        if (mode_ == Mode::Move && allBlocking)
          break;
        if (calleeLeaves(op, legacyCoveredBy(streams, allBlocking), subject))
          break; // the whole program checks what its callee leaves pending
        return broken(subject + describe(op) + ", which may issue CUDA work on any stream");
      }
    }
    bool legacyCovered = legacyCoveredBy(streams, allBlocking);
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
        if (waitsForEarlierRecord(op, index))
          break; // cudaEventSynchronize of an event recorded before the work
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
        if (onTarget(op))
          break; // ordered after the work on the target
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

  /// A wait for an event recorded before the work, in the same loops as
  /// the work and the wait: it never waited for the work.
  bool waitsForEarlierRecord(const StreamOperation &op, size_t index) const {
    if (!op.recordedBy || index <= at_)
      return false;
    for (size_t i = 0; i < at_; ++i)
      if (ops_[i].node == op.recordedBy)
        return ops_[i].loops == ops_[at_].loops && op.loops == ops_[at_].loops;
    return false;
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

  /// Under calleesOnTarget: `op` calls a user function with the target as
  /// an argument, or one that gets no target (recorded; the whole program
  /// confirms the callee's work is all on that parameter, or that it has
  /// no CUDA work at all).
  bool onTarget(const StreamOperation &op, bool back = false) const {
    if (!assume_.calleesOnTarget)
      return false;
    const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node);
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    if (!callee || llvm::isa<clang::CXXOperatorCallExpr>(call) ||
        (llvm::isa<clang::CXXMethodDecl>(callee) &&
         llvm::cast<clang::CXXMethodDecl>(callee)->isVirtual()))
      return false;
    std::string key = orderingKey(*callee);
    if (key.empty())
      return false;
    int parameter = ordering::NoDeviceWork; // no work at all, when it does not get the target
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const auto *ref =
          llvm::dyn_cast<clang::DeclRefExpr>(call->getArg(i)->IgnoreParenImpCasts());
      if (ref && ref->getDecl()->getCanonicalDecl() == target_.variable) {
        parameter = int(i);
        break;
      }
    }
    if (back && assume_.calleesLeave && parameter == ordering::NoDeviceWork)
      return false; // judged by what its callee leaves pending (calleeLeaves)
    std::pair<std::string, int> assumed{key, parameter};
    if (!llvm::is_contained(assumedCallees_, assumed))
      assumedCallees_.push_back(std::move(assumed));
    return true;
  }
  mutable std::vector<std::pair<std::string, int>> assumedCallees_;

  /// Earlier legacy-stream work is known done before the work (or the wait).
  static bool legacyCoveredBy(const std::vector<OrderingStream> &streams, bool allBlocking) {
    return allBlocking || llvm::any_of(streams, [](const OrderingStream &s) {
             return s.kind == OrderingStream::Legacy;
           });
  }

  /// Under calleesLeave, walking back: `op` calls a user function, whose
  /// work pending at its return must be nothing, or only legacy-stream work
  /// where that is covered here (recorded for the whole program to check).
  bool calleeLeaves(const StreamOperation &op, bool legacyCovered, const char *subject) const {
    if (!assume_.calleesLeave)
      return false;
    std::optional<ordering::CalleeNeed> need = userCallNeed(op, function_, context_);
    if (!need)
      return false;
    need->narrow = mode_ == Mode::Narrow;
    need->allowed = legacyCovered ? ordering::LegacyPending : ordering::NothingPending;
    need->subject = subject;
    if (!legacyCovered)
      need->legacyUncovered = mode_ == Mode::Narrow && !workOnTarget_
                                  ? "the new wait does not wait for the legacy stream"
                                  : whyTargetLoses();
    for (ordering::CalleeNeed &earlier : calleeNeeds_)
      if (earlier.callee == need->callee && earlier.site == need->site) {
        if (need->allowed < earlier.allowed)
          earlier = *need; // reached again where less is covered
        return true;
      }
    calleeNeeds_.push_back(std::move(*need));
    return true;
  }
  mutable std::vector<ordering::CalleeNeed> calleeNeeds_;

  const std::vector<StreamOperation> &ops_;
  bool isMain_;
  const clang::FunctionDecl &function_;
  size_t at_;
  const clang::ValueDecl *targetDecl_;
  OrderingStream target_;
  StreamBlocking targetBlocking_ = StreamBlocking::Unknown;
  Mode mode_;
  TranslationUnitContext &context_;
  OrderingAssumption assume_;
  bool workOnTarget_ = false;
  std::optional<size_t> loopBegin_;
  size_t loopEnd_ = 0;
};

std::optional<TextEdit> OrderingWalker::waitBefore(const StreamOperation &op) const {
  if (op.effect == OperationEffect::Return)
    return std::nullopt;
  return insertedWait(*op.node, *ops_[at_].node, targetDecl_, context_);
}

} // namespace

OrderingVerdict walkOrdering(const FunctionOperations &ops, size_t at,
                             const clang::ValueDecl *target, OrderingMode mode,
                             TranslationUnitContext &context, const OrderingAssumption &assume,
                             bool workOnTarget) {
  return OrderingWalker(ops, at, target, mode, context, assume, workOnTarget).run();
}

} // namespace streamlint
