#pragma once
// The whole-program side of ordering::CalleeNeed (OrderingSummary.h): what
// a called user function, with everything it calls, may leave pending at
// its return, judged from the program's summaries; and which of a
// conditional fix's judgements holds. No clang types.

#include "analyzer/analysis/OrderingSummary.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace streamlint::ordering {

/// The program's functions by USR (merged facts).
using FunctionsByUsr = std::map<std::string, const OrderedFunction *>;

/// The functions of `facts` by USR: `all` of them (their identity: name,
/// main, openness, their callers), and in `reliable` those whose facts a
/// caller may rely on: not those TUs define at different places
/// (OrderedFunction::definedDifferently), whose callers may link either.
void functionsByUsr(const OrderingFacts &facts, FunctionsByUsr &all, FunctionsByUsr &reliable);

/// Why what `usr` does is not known to its callers, after its name in a
/// sentence: "whose definition is not in the analyzed program", or "which
/// is defined at a.cu:3 and at b.cu:5 (...)".
std::string unknownDefinition(const FunctionsByUsr &all, const std::string &usr);

/// The readable name of `usr`: its definition's, else the one its USR
/// spells (a function the program calls but does not define).
std::string functionName(const FunctionsByUsr &all, const std::string &usr);

/// Whether all `usr` and its callees leave pending at its return is on
/// blocking streams, which a synchronous legacy-stream copy to the host
/// issued after the call waits for. False when unknown (no definition,
/// recursion).
bool leavesOnlyBlockingWork(const FunctionsByUsr &functions, const std::string &usr,
                            std::set<std::string> &visiting);

/// Answers of leavesThroughCalls already known, by function and walk
/// (narrow or not).
using LeavesMemo = std::map<std::pair<std::string, bool>, unsigned>;

/// Why leavesThroughCalls answered as it did, in words.
struct LeavesExplanation {
  const FunctionsByUsr *all = nullptr; ///< every function: names, definitions
  std::string what;    ///< what is left pending (OrderedFunction::leavesWhat, in whom)
  std::string problem; ///< why it is not known: the last callee met without a reliable
                       ///< definition, or recursion ("" when known)
};

/// What `usr` and everything it calls may leave pending at its return:
/// the highest OrderedFunction::leavesMove (leavesNarrow when `narrow`) over
/// the calls, OtherPending for a callee without a reliable definition or
/// met again on the walk's `stack` (recursion). A callee met again after it
/// returned (called twice) has the same answer: `memo` keeps them, and a
/// value computed with a recursion cut is the conservative one in every
/// order. `why`, when given, is filled in; then nothing is memoized.
unsigned leavesThroughCalls(const FunctionsByUsr &functions, const std::string &usr,
                            bool narrow, std::set<std::string> &stack, LeavesMemo *memo,
                            LeavesExplanation *why);

/// A function as a fix being judged would leave it once applied
/// (ConditionalFix::onlyParameterAfter): where its work is then.
struct FunctionAfterFix {
  std::string usr;
  int onlyParameter = -1;
  std::vector<std::pair<std::string, int>> calls;
};

/// The stream parameter all of `usr`'s work is on, with the functions it
/// calls (OrderedFunction::onlyParameter, else onlyParameterIfCallees
/// when each call's callee puts all its work on the parameter it gets, or
/// has none); NoDeviceWork when none of it does any; -1 when not known
/// (no reliable definition, recursion, another stream). `after`: one
/// function as a fix leaves it.
int onlyParameterThroughCalls(const FunctionsByUsr &functions, const std::string &usr,
                              const FunctionAfterFix *after = nullptr);

/// Whether a call of `callee` that passes the stream of interest for its
/// `calleeParameter` puts all its work there (or has none).
bool allWorkOnParameter(const FunctionsByUsr &functions, const std::string &callee,
                        int calleeParameter, const FunctionAfterFix *after = nullptr);

class CalleeLeaves {
public:
  explicit CalleeLeaves(const OrderingFacts &facts);

  /// Why `need`, recorded by the walk of `fix`, does not hold in the
  /// program: a sentence naming the call and what it leaves ("" when it
  /// holds).
  std::string problem(const CalleeNeed &need, const ConditionalFix &fix) const;

  /// The stream parameter all of `usr`'s own work is on (OrderedFunction).
  int onlyParameter(const std::string &usr) const;

private:
  /// Every function `usr` may call (through the program's calls), itself
  /// included; `recursive` when a call leads back to `usr`.
  std::set<std::string> reachable(const std::string &usr, bool &recursive) const;
  std::string nameOf(const std::string &usr) const;

  FunctionsByUsr all_, functions_; ///< functionsByUsr: all, reliable
  std::map<std::string, std::set<std::string>> calls_; ///< caller -> callees
  std::map<std::string, std::vector<const ConditionalFix *>> fixesIn_; ///< by function
};

} // namespace streamlint::ordering
