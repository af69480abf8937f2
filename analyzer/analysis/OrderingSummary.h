#pragma once
// The whole-program part of stream ordering (docs/fixes.md, rules 3, 4 and
// 7 decided from the real callers). Each TU summarizes, per call of a user
// function, what its caller still has pending when it calls (the work the
// callee's moved work used to wait for) and what the caller does first when
// the call returns (whether it relied on the legacy stream's order), which
// stream each stream argument is; per function, whether code outside the
// analyzed program may call it; per global or member stream, how each write
// creates it. A fix whose verdict depends on the callers is recorded as a
// ConditionalFix with its verdict under each assumption; after every TU was
// analyzed, resolveConditionalFixes() decides it from the program.
//
// No clang types: merged across TUs, serialized with the TU summary (the
// project index, named files and CI shards carry it), self-contained.

#include "analyzer/Finding.h"

#include <map>
#include <string>
#include <vector>

namespace streamlint::ordering {

/// What a caller has pending (not waited for by the host) when it calls,
/// for moved work (old edges only to blocking streams) or for a narrowed
/// wait (every stream). Ordered: a larger value needs more.
enum Pending : unsigned { NothingPending = 0, LegacyPending = 1, OtherPending = 2 };
/// What the caller does first after the call returns, as far as work moved
/// off the legacy stream is concerned. Ordered likewise.
enum Next : unsigned { NextWaits = 0, NextLegacyWork = 1, NextDepends = 2 };
inline constexpr unsigned Levels = 3;
/// FunctionFacts::onlyParameter of a function that issues no CUDA work and
/// waits for nothing (no call of its may do anything either).
inline constexpr int NoDeviceWork = -2;

/// Whether a stream synchronizes with the legacy stream, as the program
/// shows it.
enum class Blocking { Blocking, NonBlocking, Unknown };
const char *blockingName(Blocking blocking); // "blocking", ...

/// Where a stream value comes from at a call or a write.
struct StreamSource {
  enum Kind { Known, CallerParameter, Variable } kind = Known;
  Blocking blocking = Blocking::Unknown; ///< Known
  int parameter = -1;                    ///< CallerParameter: index in the caller
  std::string variable;                  ///< Variable: USR of a global or member
  std::string spelled;                   ///< for messages: "s", "streams[i]"
};

/// One call of a user function, seen from its caller.
struct OrderedCall {
  std::string caller, callerName; ///< USR and readable name
  std::string callee;             ///< USR
  SourcePoint site;
  unsigned pendingMove = OtherPending, pendingNarrow = OtherPending;
  bool pendingReachesEntry = false; ///< no wait in the caller before the call covers its own callers
  unsigned next = NextDepends;
  bool nextReachesReturn = false;   ///< nothing after the call decides: the caller's callers do
  std::string pendingWhat, nextWhat; ///< what made the levels, for notes
  /// Calls of user functions walked over (before the call; after it, in
  /// order): what they leave pending or do first decides with the levels.
  std::vector<std::string> pendingCalls, nextCalls;
  /// Calls of user functions walked over, for a narrowed wait, before a
  /// synchronous legacy-stream copy to the host that the caller issued
  /// after them: the copy waited for their work on blocking streams, so
  /// they count only when they may return with work on another stream
  /// (OrderedFunction::leavesBlockingOnly).
  std::vector<std::string> coveredCalls;
  /// Pending work on a stream this call passes for the callee's parameter
  /// (by index): not counted in the levels; moved work on that parameter,
  /// or a wait for it, waits for it anyway.
  std::vector<int> pendingOnParameters;
  /// A call of `pendingCalls` (at `position`) that passes the stream this
  /// call passes for the callee's `parameter`, for its own callee's
  /// `calleeParameter`: when the fix's target is `parameter` and that
  /// callee's work is all on `calleeParameter` (or it has none), what it
  /// leaves pending is on the target, which the moved work or the narrowed
  /// wait waits for anyway.
  struct CallOnParameter {
    int position = 0, calleeParameter = -1, parameter = -1;
    bool operator==(const CallOnParameter &o) const {
      return position == o.position && calleeParameter == o.calleeParameter &&
             parameter == o.parameter;
    }
  };
  std::vector<CallOnParameter> pendingCallsOnParameters;
  /// What comes first after the call when the fix's target is the stream
  /// this call passes for `parameter`: work on that stream (and calls
  /// that pass it, `callsOnParameter` with `parameter` set to it, whose
  /// work is all on it) is ordered after the moved work and decides
  /// nothing; a wait for it covers the moved work. Kept only where it
  /// differs from the general walk (`next`, `nextCalls`, ...).
  struct NextOnParameter {
    int parameter = -1;
    unsigned level = NextDepends;
    bool reachesReturn = false;
    std::string what;
    std::vector<std::string> calls;
    std::vector<CallOnParameter> callsOnParameter; ///< positions in `calls`
  };
  std::vector<NextOnParameter> nextOnParameters;
  std::map<int, StreamSource> streams; ///< by the callee's parameter index
};

/// A function defined in some TU, and whether its callers are all known.
struct OrderedFunction {
  std::string usr, name;
  bool isMain = false;
  /// Why code outside the analyzed program may call it ("its address is
  /// taken", "it is virtual", ...); "" when only its calls in the program can.
  std::string openBecause;
  /// What its own operations leave pending when it returns (walked back
  /// from its end to a wait for the device), and the user calls on the way.
  unsigned leavesMove = OtherPending, leavesNarrow = OtherPending;
  std::vector<std::string> leavesCalls;
  /// Calls walked over before a synchronous legacy-stream copy to the host
  /// (as OrderedCall::coveredCalls), for a narrowed wait.
  std::vector<std::string> leavesCoveredCalls;
  /// Whether all it leaves pending (its own work; with its callees') is on
  /// blocking streams: the legacy or per-thread default stream, or streams
  /// it creates with cudaStreamCreate or flags without
  /// cudaStreamNonBlocking. A later synchronous copy to the host on the
  /// legacy stream waits for all of it. False for a stream parameter, a
  /// global, a non-blocking stream, a call that may do anything.
  bool leavesBlockingOnly = false;
  /// What it does first, as a caller's next operation would be judged;
  /// `firstDecides` false when it can return without doing anything that
  /// decides (then what follows its call does).
  unsigned first = NextDepends;
  bool firstDecides = true;
  std::vector<std::string> firstCalls;
  /// The index of the stream parameter every CUDA operation of its own is
  /// issued to (or a wait for the device), -1 when there is none such: work
  /// a caller moved to the stream it passes there is ordered before it.
  int onlyParameter = -1; ///< NoDeviceWork: it issues no work and waits for nothing
  /// The same, where it calls user functions too: its own work is all on
  /// this parameter (NoDeviceWork: it has none), and each call
  /// `onlyParameterCalls` names passes that parameter for the callee's
  /// parameter given (-1: passes it for none). It holds when each such
  /// callee's work is all on that parameter, or it has none
  /// (onlyParameterThroughCalls() in CalleeLeaves.h). -1 when another
  /// stream, or a call that may do anything, is there.
  int onlyParameterIfCallees = -1;
  std::vector<std::pair<std::string, int>> onlyParameterCalls;
  /// It, or a function it calls in its TU, selects a device (cudaSetDevice):
  /// its work may be on another device than its caller's. True when unknown.
  bool selectsDevice = true;
  /// The operation that makes `leavesNarrow`, for notes ("the kernel launch
  /// at kernels.cu:17 (stream 'stream')"); "" when nothing is pending.
  std::string leavesWhat;
  /// False when the TU stored only its identity (usr, name, isMain,
  /// openBecause): no fact it stored names it, so the whole-program pass
  /// never reads what it leaves or does first (analysis/OrderingScope.h);
  /// another TU's summary of it, if any, stands.
  bool summarized = true;
  /// Where its definition is (the file's real path and the line; column 0):
  /// a function of an inline header is defined at one place whichever TU
  /// saw it; two places are two definitions, of two programs that share a
  /// compile database (every sample of a suite defines its own helpers).
  SourcePoint definedAt;
  /// Set by OrderingFacts::normalize where TUs define it at different
  /// places: which definition a caller links is not known, so no caller
  /// relies on what it does ("defined at a/x.cu:3 and at b/x.cu:5").
  std::string definedDifferently;
};

/// A call of a user function that a fix's own walk went over (its callee's
/// summary decides, docs/fixes.md "Calls of user functions in the walk"):
/// it holds when all the callee (and its callees) may leave pending at its
/// return is at most `allowed`.
struct CalleeNeed {
  std::string callee, calleeName; ///< USR and readable name
  std::string site;               ///< "line 244" (or "file.cu:244")
  bool narrow = false;            ///< leavesNarrow (every stream) or leavesMove
  unsigned allowed = NothingPending; ///< NothingPending or LegacyPending
  /// The callee's stream parameter this call leaves to the legacy stream (0,
  /// NULL, an omitted default); -1 if none. A callee whose own work is all
  /// on that parameter (onlyParameter) leaves at most legacy-stream work.
  int legacyParameter = -1;
  /// "the host would no longer wait for " / "this work would no longer wait for "
  std::string subject;
  /// Why legacy-stream work it left pending would not be waited for (when
  /// `allowed` is NothingPending), for notes.
  std::string legacyUncovered;
};

/// A write of a global or member stream.
struct StreamWrite {
  std::string variable; ///< USR
  StreamSource value;
};

/// A fix whose ordering verdict depends on the callers of `function` and
/// on whether `target` is blocking: its verdict under each assumption.
struct ConditionalFix {
  std::string check;
  SourcePoint finding;   ///< the finding's location; with check and edit, the key
  SourcePoint firstEdit; ///< begin of the fix's first edit
  std::string function, functionName;
  bool narrow = false;   ///< a narrowed wait (rule 7), not moved work
  std::string description; ///< the fix's description before ordering was judged
  StreamSource target;   ///< Known when decided in the function
  struct Case {
    Blocking blocking = Blocking::Unknown;
    /// Bit pending * Levels + next: the verdict keeps every edge.
    unsigned safe = 0;
    std::vector<TextEdit> waits;
    std::string waitNote;
    std::vector<std::string> brokenBy; ///< by the same bit; "" when safe
    /// casesIfCalleesLeave only: the calls judged as work on the target (as
    /// calleesOnTarget) and the calls judged by what their callees leave.
    std::vector<std::pair<std::string, int>> onTarget;
    std::vector<CalleeNeed> needs;
  };
  std::vector<Case> cases;
  /// Calls of user functions (USR, parameter index) that get the target:
  /// `casesIfCallees` judged them as work on the target. They hold when
  /// each callee's own work is all on that parameter (onlyParameter).
  std::vector<std::pair<std::string, int>> calleesOnTarget;
  std::vector<Case> casesIfCallees;
  /// Judged once more with every other call of a user function walked back
  /// over as its callee's summary says (each Case's `needs`): decides when
  /// all of a case's needs and onTarget calls hold in the program.
  std::vector<Case> casesIfCalleesLeave;
  /// The target is the per-thread default stream (`cudaStreamPerThread`):
  /// also needs a program that creates streams and runs CUDA work on one
  /// host thread (OrderingFacts::streamCreations, hostThreads).
  bool perThreadTarget = false;
  /// A target parameter: its index if, with the fix applied, all of
  /// `function`'s work is on it, given that each call of
  /// `onlyParameterAfterCalls` puts its callee's work on the parameter
  /// named (OrderedFunction::onlyParameterIfCallees); -1 otherwise. Its
  /// callers' earlier and later calls of `function` itself are then work
  /// on the target (a loop that calls it each iteration).
  int onlyParameterAfter = -1;
  std::vector<std::pair<std::string, int>> onlyParameterAfterCalls;
};

/// Where a TU starts host threads or creates a stream, and in which
/// function: in a compile database of several programs, the programs that
/// run that function are those whose main reaches it by calls
/// (ProgramOrdering::programsRunning).
struct ProgramEvent {
  std::string what;     ///< "pthread_create at worker.cu:12"
  std::string function; ///< USR of the function it is in; "" outside any (a global's initializer)
};

/// One TU's share of the program-wide facts, kept apart when TUs are
/// merged (OrderingFacts::units): a compile database may hold several
/// programs, and a TU that defines `main` belongs to its own.
struct UnitProgramFacts {
  /// The file that defines its `main` ("" when it defines none, or none
  /// was summarized).
  std::string mainFile;
  std::vector<std::string> streamCreations, hostThreads;
  std::vector<ProgramEvent> streamCreators, threadStarters;
  /// OrderingFacts::addressTakers of the TU.
  std::vector<ProgramEvent> addressTakers;
};

/// One TU's ordering facts, and the union of every TU's.
struct OrderingFacts {
  std::vector<OrderedCall> calls;
  std::vector<OrderedFunction> functions;
  std::vector<StreamWrite> writes;
  std::vector<std::string> addressTaken; ///< USRs of functions used other than by a call
  /// Each such use: `what` is the used function's USR, `function` the one
  /// the use is in ("" outside any: a global's initializer). A pointer
  /// taken there exists only in the programs that run that function.
  std::vector<ProgramEvent> addressTakers;
  std::vector<ConditionalFix> fixes;
  /// Where the program creates a stream ("cudaStreamCreate at a.cu:12"; a
  /// TU's first) and where it starts host threads (std::thread,
  /// pthread_create, std::async, an OpenMP directive): what the per-thread
  /// default stream as a fix's target needs to know.
  std::vector<std::string> streamCreations, hostThreads;
  /// The same, each with its function: the first of each function in a TU.
  std::vector<ProgramEvent> streamCreators, threadStarters;
  /// USRs of user functions called outside any function (a global's
  /// initializer): every program that links their caller's TU runs them.
  std::vector<std::string> startupCalls;
  /// Each TU's share of those, when the whole program's facts were merged
  /// from TUs' (addUnit); empty in one TU's own facts.
  std::vector<UnitProgramFacts> units;
  /// Appends `other` (a TU's facts, or merged ones with their units).
  void add(OrderingFacts other);
  /// Appends one TU's facts, keeping its share of the program-wide facts.
  void addUnit(OrderingFacts unit);
  /// Sorted and deduplicated: the same whatever order TUs were added in.
  void normalize();
  bool empty() const {
    return calls.empty() && functions.empty() && writes.empty() && addressTaken.empty() &&
           fixes.empty() && streamCreations.empty() && hostThreads.empty() &&
           streamCreators.empty() && threadStarters.empty() && startupCalls.empty() &&
           addressTakers.empty();
  }
};

/// The JSON form (nlohmann/json text of one object) and back; errors say what.
std::string toJsonText(const OrderingFacts &facts);
bool fromJsonText(const std::string &text, OrderingFacts &facts, std::string &error);

/// Decides every conditional fix of `facts` (the whole program's) and
/// updates the matching fix of `findings`: applicable with its waits when
/// the program's callers and streams keep every edge; otherwise a
/// suggestion whose description names what blocks it.
void resolveConditionalFixes(OrderingFacts facts, std::vector<Finding> &findings);

} // namespace streamlint::ordering
