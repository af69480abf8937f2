#pragma once
// The whole program's callers, stream writes and openness as the ordering
// facts of every TU show them (OrderingSummary.h), with memoized answers:
// what callers have pending when they call a function, what they do first
// after it returns, whether the streams they pass are blocking. The
// questions resolveConditionalFixes() asks of a ConditionalFix.

#include "analyzer/analysis/CalleeLeaves.h"
#include "analyzer/analysis/OrderingSummary.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace streamlint::ordering {

/// The program's callers, stream writes and openness, with memoized answers.
class ProgramOrdering {
public:
  explicit ProgramOrdering(const OrderingFacts &facts);

  /// Why the per-thread default stream cannot stand in for the legacy
  /// stream for a fix in `function`, in `fixFile`: the program starts host
  /// threads, or creates no stream; "" when it can. In a database of
  /// several programs, judged with the programs that run `function`
  /// (programsRunning), else with those that may hold `fixFile`'s code
  /// (UnitProgramFacts).
  std::string perThreadProblem(const std::string &fixFile, const std::string &function) const;

  /// The files defining the mains of the programs that may run `usr`:
  /// those whose main reaches it through the calls the program shows.
  /// nullopt when code elsewhere may call it, on the way up included
  /// (openReason: its address is taken, it is virtual, a lambda, never
  /// called; a global's initializer calls it), or a main calling it is
  /// not one the units name. Empty: no main reaches it.
  std::optional<std::set<std::string>> programsRunning(const std::string &usr) const;

  /// The stream parameter all of `usr`'s work is on, with its callees'
  /// (onlyParameterThroughCalls), the fix being judged applied; -1 if none.
  int onlyParameter(const std::string &usr) const;

  /// Why code outside the program may call `usr`; "" when only the
  /// program's own calls can.
  std::string openReason(const std::string &usr) const;

  bool isMain(const std::string &usr) const;

  /// The fix being judged, as it would leave its function (nullopt: none):
  /// callers' calls of that function are judged with it applied.
  void judgeWithFixApplied(std::optional<FunctionAfterFix> after) { after_ = std::move(after); }

  /// The most any caller has pending when it calls `usr`.
  /// `parameter`: the fix's target is this parameter of `usr` (-1: not a
  /// parameter): callers' pending work on the stream they pass there is
  /// waited for by the moved work or the narrowed wait.
  unsigned pending(const std::string &usr, bool narrow, int parameter, std::string &why);
  /// The most any caller needs after `usr` returns; `parameter` as for
  /// `pending`: callers' later work on the stream they pass there runs
  /// after the moved work.
  unsigned next(const std::string &usr, int parameter, std::string &why);
  Blocking parameterBlocking(const std::string &usr, int parameter, std::string &why);
  /// Whether every call of `usr` passes the legacy stream (0, NULL,
  /// cudaStreamLegacy, an omitted default) for `parameter`, directly or
  /// through its callers' parameters.
  bool passesOnlyLegacy(const std::string &usr, int parameter, unsigned depth = 0);

  Blocking variableBlocking(const std::string &variable, std::string &why);

private:
  /// programsRunning while walking up; `partial` when a caller on the
  /// stack was met again (the answer is then only final for the walk's
  /// first function).
  struct Reach {
    std::optional<std::set<std::string>> mains;
    bool partial = false;
  };
  Reach reachOf(const std::string &usr, std::set<std::string> &visiting) const;
  /// Whether `usr` is open only because its address is taken, each time
  /// in a function (not a global's initializer): a pointer to it exists
  /// only in the programs that run those functions, so they place it as
  /// its callers do.
  bool placedByItsTakers(const std::string &usr) const;

  /// programsRunning for the function `event` (of `unit`) is in.
  std::optional<std::set<std::string>> programsRunningEvent(const UnitProgramFacts &unit,
                                                            const ProgramEvent &event) const;

  /// perThreadProblem for a fix that only `programs` run.
  std::string problemInPrograms(const std::set<std::string> &programs) const;

  std::string realPath(const std::string &path) const; ///< cached; `path` where it fails

  unsigned pendingOf(const std::string &usr, bool narrow, int parameter, std::string &why,
                     std::set<std::string> &visiting);

  unsigned nextOf(const std::string &usr, int parameter, std::string &why,
                  std::set<std::string> &visiting);

  /// The call at `position` of a caller's walk passes the target (the
  /// stream given for `parameter`) to `callee`, which puts all its work
  /// there (OrderedCall::CallOnParameter).
  bool onTarget(const std::vector<OrderedCall::CallOnParameter> &passedAlong, size_t position,
                const std::string &callee, int parameter) const;

  std::string nameOf(const std::string &usr) const;

  bool blockingOnly(const std::string &usr, std::set<std::string> &visiting) const;

  /// What `usr` does first (a level) and whether that decides.
  std::pair<unsigned, bool> firstOf(const std::string &usr, std::set<std::string> &seen) const;

  Blocking sourceBlocking(const StreamSource &source, const OrderedCall *call,
                          std::string &why, std::set<std::string> &visiting);

  static Blocking join(std::optional<Blocking> &seen, Blocking one);

  Blocking parameterOf(const std::string &usr, int parameter, std::string &why,
                       std::set<std::string> &visiting);

  Blocking variableOf(const std::string &variable, std::string &why,
                      std::set<std::string> &visiting);

  FunctionsByUsr all_, functions_; ///< functionsByUsr: all, reliable
  std::map<std::string, std::vector<const OrderedCall *>> callsTo_;
  std::set<std::string> addressTaken_;
  /// Where each function's address is taken: the TU (nullptr: not known)
  /// and the function the use is in.
  std::map<std::string, std::vector<std::pair<const UnitProgramFacts *, std::string>>> takers_;
  std::map<std::string, std::vector<const StreamSource *>> writes_;
  bool hasMain_ = false;
  std::vector<std::string> streamCreations_, hostThreads_;
  std::vector<UnitProgramFacts> units_;
  std::set<std::string> mainFiles_; ///< the units' (UnitProgramFacts::mainFile)
  std::set<std::string> startupCalls_;
  mutable std::map<std::string, std::optional<std::set<std::string>>> programs_; ///< programsRunning's
  mutable std::map<std::string, std::string> realPaths_;
  std::optional<FunctionAfterFix> after_;
  LeavesMemo leavesMemo_; ///< leavesThroughCalls' answers
  mutable std::map<std::string, std::pair<unsigned, bool>> firstMemo_;  ///< firstOf's
};

} // namespace streamlint::ordering
