#pragma once
// Walks a caller's operations around one of them (a call of a user
// function, or a return): what is pending before it, what comes first
// after it. Calls of user functions are not judged here: they are
// collected, and the whole-program pass (OrderingSummary.h) judges them by
// their own summaries. Used by CallerOrdering's facts collector.

#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/Decl.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

class CallerWalk {
public:
  /// `userCalls[i]`: the USR of the user function operation i calls, or "";
  /// `passed`: stream variables the call passes, by the callee's parameter.
  CallerWalk(const FunctionOperations &ops, size_t at, const std::vector<std::string> &userCalls,
             std::map<const clang::Decl *, int> passed = {});

  struct Result {
    unsigned level = 0;
    bool reachesEnd = false; ///< the function's entry (back) or a return (forward)
    std::string what;
    std::vector<std::string> calls;
    std::vector<int> onParameters; ///< pending on the streams passed at the call
    /// Calls in `calls` that pass a stream the call passes too (positions
    /// in `calls`; OrderedCall::CallOnParameter).
    std::vector<ordering::OrderedCall::CallOnParameter> callsOnParameters;
    /// Calls of user functions walked over (back, for a narrowed wait) after
    /// a later synchronous legacy-stream copy to the host was found: that
    /// copy waited for their work on blocking streams, so only what they
    /// may leave on other streams is still pending.
    std::vector<std::string> coveredCalls;
    /// Every operation counted in `level` is on a blocking stream (the
    /// legacy or per-thread stream, or one the function creates blocking):
    /// a later synchronous legacy-stream copy to the host waits for it.
    bool blockingOnly = true;
    /// The operation that set `level` (null when nothing is pending).
    const StreamOperation *levelOp = nullptr;
  };

  /// What is pending before the operation: this iteration and, in a loop,
  /// the previous one (the operation itself included); then to the entry.
  /// `narrow`: for a narrowed wait (every stream counts).
  Result pending(bool narrow) const;

  /// What comes first after the operation: round the loop again (up to the
  /// operation itself), and after the loop to the function's end.
  Result next(size_t from) const;
  /// The same when the moved work is on `target`, a stream variable the
  /// call passes: work on it, and a wait for it, count as on the moved
  /// work's stream (OrderedCall::NextOnParameter).
  Result next(size_t from, const clang::Decl *target) const;
  /// OrderedCall::nextOnParameters: for each stream variable the call
  /// passes, next(from, it), where that differs from `general` (next(from)).
  std::vector<ordering::OrderedCall::NextOnParameter>
  nextOnParameters(size_t from, const Result &general) const;

private:
  static void merge(Result &into, Result other);
  bool unconditional(const StreamOperation &op) const;
  /// The loop whose every iteration runs `wait` (a wait for the device),
  /// when the walk started outside of it; null otherwise.
  const clang::Stmt *everyIterationWaits(const StreamOperation &wait) const;
  /// `wrapped`: the path goes round the loop, into the call's previous
  /// (or next) iteration.
  Result walkBack(const std::vector<size_t> &path, bool narrow, bool wrapped) const;
  Result walkForward(const std::vector<size_t> &path, const clang::Decl *target) const;
  /// The parameter of the user function operation `index` calls that gets
  /// a stream variable the walked call passes, and the parameter it is
  /// passed for there; nullopt when none does. Only `target` when set.
  std::optional<ordering::OrderedCall::CallOnParameter>
  passedAlong(size_t index, const clang::Decl *target, bool wrapped) const;
  /// Whether `variable` names one stream in every iteration of the loop
  /// the walks go round: it is neither declared nor written in it.
  bool sameEveryIteration(const clang::Decl *variable) const;

  const std::vector<StreamOperation> &ops_;
  const clang::FunctionDecl *function_ = nullptr;
  size_t at_;
  const std::vector<std::string> &userCalls_;
  std::map<const clang::Decl *, int> passed_; ///< stream variable -> parameter it is passed for
  std::optional<size_t> lo_;
  size_t hi_ = 0;
  const clang::Stmt *outerLoop_ = nullptr; ///< the outermost loop around the call
};

/// The parameter every enqueue and stream wait of `ops` (the operations of
/// `function`) uses (waits for the device allowed); ordering::NoDeviceWork
/// when there is no enqueue, stream wait or call that may do anything at
/// all; -1 when another stream or a call that may do anything is there.
int onlyStreamParameter(const clang::FunctionDecl &function,
                        const std::vector<StreamOperation> &ops);

/// Per operation of `ops`: the key (USR) of the user function it calls,
/// judged by that function's summary (a direct, non-virtual call that may
/// do anything), or "".
std::vector<std::string> userCallKeys(const std::vector<StreamOperation> &ops);

/// The same where `function` calls user functions (`userCalls[i]`: the
/// callee of operation i, or ""): the parameter its own work is all on
/// (ordering::NoDeviceWork: none), each such call passing it for the
/// callee's parameter in `calls` (-1: for none); the whole program checks
/// the callees (OrderedFunction::onlyParameterIfCallees). -1 as above.
int onlyStreamParameterIfCallees(const clang::FunctionDecl &function,
                                 const std::vector<StreamOperation> &ops,
                                 const std::vector<std::string> &userCalls,
                                 std::vector<std::pair<std::string, int>> &calls);

} // namespace streamlint
