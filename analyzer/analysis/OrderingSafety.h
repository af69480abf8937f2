#pragma once
// Whether a fix that moves work off the legacy default stream, or narrows a
// device-wide wait to one stream, keeps every happens-before edge the old
// code had. Shared by every check whose fix changes which stream work runs on
// or what a wait waits for (default-stream, device-sync): such a fix is
// applicable only when this says so. Rules and examples: docs/fixes.md.
//
// The analysis looks at the enclosing function (and the bodies of functions
// it calls that are defined in the TU). Work before the function is entered
// and after it returns is unknown unless the function is main: it counts as
// depending on the old ordering unless a wait in the function covers it.

#include "analyzer/Finding.h"
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace streamlint {

/// What checking a stream-changing fix found.
struct OrderingVerdict {
  /// Every edge is kept (with `waits` inserted, if any).
  bool keepsOrdering = false;
  /// `cudaStreamSynchronize(target);` inserted before the first operation
  /// that relied on the old ordering, on each path after the work.
  std::vector<TextEdit> waits;
  /// Why not (when !keepsOrdering): names the operation that depended on the
  /// old ordering and where it is.
  std::string brokenBy;
  /// When waits were added: "waits for 's' before the cudaMemcpy at line 14".
  std::string waitNote;
  /// Under OrderingAssumption::calleesOnTarget: the calls judged as work on
  /// the target, as (callee key, parameter index) pairs.
  std::vector<std::pair<std::string, int>> assumedCallees;
  /// Under OrderingAssumption::calleesLeave: the calls of user functions
  /// walked back over, with what their callees may leave pending.
  std::vector<ordering::CalleeNeed> calleeNeeds;
  /// A move to a stream parameter: that parameter's index if, once --fix
  /// applied the move, all the function's work is on it
  /// (onlyStreamParameterIfCallees of the moved operations), with the
  /// calls that must put theirs there too; -1 otherwise
  /// (ConditionalFix::onlyParameterAfter).
  int onlyParameterAfter = -1;
  std::vector<std::pair<std::string, int>> onlyParameterAfterCalls;
};

/// What the analysis assumes about the enclosing function's callers and
/// the target stream. The default is rule 4's: callers unknown, the target
/// as the function shows it. OrderingSummary's whole-program pass asks
/// under the assumptions its facts decide.
struct OrderingAssumption {
  unsigned pending = ordering::OtherPending; ///< what callers have pending at the call
  unsigned next = ordering::NextDepends;     ///< what callers do after it returns
  std::optional<StreamBlocking> target;      ///< the target's blocking, if assumed
  /// A call of a user function that passes the target is work on the target
  /// (its callee, the whole program says, issues all its work there).
  bool calleesOnTarget = false;
  /// Walking back, a call of a user function that does not pass the target
  /// is judged by what its callee leaves pending at its return (recorded
  /// as a CalleeNeed for the whole program to check), not as "may do
  /// anything". Set with calleesOnTarget.
  bool calleesLeave = false;
  /// Also say where the function's work is once the move is applied
  /// (OrderingVerdict::onlyParameterAfter): the same under every
  /// assumption, so asked of one judgement only.
  bool describeFunctionAfter = false;
};

/// One call a fix moves off the legacy default stream: a launch or
/// stream-ordered call, or a call of a user function whose defaulted stream
/// parameter `calleeParameter` gets the target stream.
struct MovedCall {
  const clang::CallExpr *call = nullptr;
  const clang::ParmVarDecl *calleeParameter = nullptr;
};

/// Moving every call of `group` (all in one function) to the stream variable
/// `target` together: `--fix` applies all of their fixes or none, so each is
/// judged with the others already moved. One verdict for the group.
OrderingVerdict checkMoveToStream(llvm::ArrayRef<MovedCall> group, const clang::VarDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume = {});

/// The same with the per-thread default stream, `cudaStreamPerThread`, as
/// the target (a function that uses no stream variable): a blocking stream
/// every function has. The caller must also know that the program runs its
/// CUDA work on one host thread (OrderingSummary.h: perThreadTarget).
OrderingVerdict checkMoveToPerThreadStream(llvm::ArrayRef<MovedCall> group,
                                           TranslationUnitContext &context,
                                           const OrderingAssumption &assume = {});

/// Makes `fix` (which moves work to another stream) follow `verdict`: not
/// applicable, its description naming what broke; or applicable with the
/// waits inserted and described.
void applyOrderingVerdict(FixIt &fix, const OrderingVerdict &verdict);

/// Replacing the device-wide wait `sync` by cudaStreamSynchronize(target).
OrderingVerdict checkNarrowedWait(const clang::CallExpr &sync, const clang::ValueDecl &target,
                                  TranslationUnitContext &context, bool perThreadBuild,
                                  const OrderingAssumption &assume = {});

/// Replacing the device-wide wait `sync` by
/// cudaStreamSynchronize(cudaStreamPerThread) (rule 10): every piece of
/// work the host then waits for must be on the per-thread stream.
OrderingVerdict checkNarrowedWaitToPerThread(const clang::CallExpr &sync,
                                             TranslationUnitContext &context,
                                             bool perThreadBuild,
                                             const OrderingAssumption &assume = {});

/// The same together with default-stream's moves of `group` (the calls of
/// the function it moves to cudaStreamPerThread, rule 10) and rule 9's
/// rewrites of the synchronous copies `asyncCopies` (each then Async on the
/// per-thread stream and waited for): the wait judged with all of that
/// made, each copy judged with the rest made, each move judged with the
/// wait narrowed. For one fix that makes all of those edits.
OrderingVerdict checkNarrowedWaitWithPerThreadMoves(const clang::CallExpr &sync,
                                                   llvm::ArrayRef<MovedCall> group,
                                                   llvm::ArrayRef<const clang::CallExpr *> asyncCopies,
                                                   TranslationUnitContext &context,
                                                   const OrderingAssumption &assume = {});

/// Replacing the synchronous copy or memset `copy` by its Async form on
/// `target` (null: cudaStreamPerThread) and a wait for `target` (rule 9):
/// judged as a narrowed wait whose target first gets the copy, so on a
/// blocking target earlier legacy-stream work is waited for too.
OrderingVerdict checkAsyncCopy(const clang::CallExpr &copy, const clang::ValueDecl *target,
                               TranslationUnitContext &context, bool perThreadBuild,
                               const OrderingAssumption &assume = {});

} // namespace streamlint
