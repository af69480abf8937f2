// Resolving the conditional fixes of OrderingSummary.h from the program's
// facts (merged in OrderingFacts.cpp).
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/CalleeLeaves.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace streamlint::ordering {

namespace {

std::string shortPoint(const SourcePoint &p) {
  return llvm::sys::path::filename(p.file).str() + ":" + std::to_string(p.line);
}

} // namespace

namespace {

/// The program's callers, stream writes and openness, with memoized answers.
class ProgramOrdering {
public:
  explicit ProgramOrdering(const OrderingFacts &facts) {
    for (const OrderedFunction &f : facts.functions) {
      functions_[f.usr] = &f;
      hasMain_ = hasMain_ || f.isMain;
    }
    for (const OrderedCall &c : facts.calls)
      callsTo_[c.callee].push_back(&c);
    addressTaken_.insert(facts.addressTaken.begin(), facts.addressTaken.end());
    for (const StreamWrite &w : facts.writes)
      writes_[w.variable].push_back(&w.value);
    streamCreations_ = facts.streamCreations;
    hostThreads_ = facts.hostThreads;
  }

  /// Why the per-thread default stream cannot stand in for the legacy
  /// stream in this program; "" when it can.
  std::string perThreadProblem() const {
    if (!hostThreads_.empty())
      return "the program starts host threads (" + hostThreads_.front() +
             "): each has its own per-thread default stream, where the legacy stream "
             "ordered all of their work";
    if (streamCreations_.empty())
      return "the program creates no stream: all of its work is on the legacy stream, "
             "and moving it off is a design decision";
    return "";
  }

  /// The stream parameter all of `usr`'s own work is on; -1 if none.
  int onlyParameter(const std::string &usr) const {
    auto found = functions_.find(usr);
    return found == functions_.end() ? -1 : found->second->onlyParameter;
  }

  /// Why code outside the program may call `usr`; "" when only the
  /// program's own calls can.
  std::string openReason(const std::string &usr) const {
    auto found = functions_.find(usr);
    if (found == functions_.end())
      return "its definition is not in the analyzed program";
    const OrderedFunction &f = *found->second;
    if (f.isMain)
      return "";
    if (!f.openBecause.empty())
      return f.openBecause;
    if (addressTaken_.count(usr))
      return "its address is taken, so it may be called through a pointer";
    if (!hasMain_)
      return "the analyzed program defines no main, so code outside it may call it";
    if (!callsTo_.count(usr))
      return "no call of it is in the analyzed program";
    return "";
  }

  bool isMain(const std::string &usr) const {
    auto found = functions_.find(usr);
    return found != functions_.end() && found->second->isMain;
  }

  /// The most any caller has pending when it calls `usr`.
  /// `parameter`: the fix's target is this parameter of `usr` (-1: not a
  /// parameter): callers' pending work on the stream they pass there is
  /// waited for by the moved work or the narrowed wait.
  unsigned pending(const std::string &usr, bool narrow, int parameter, std::string &why) {
    std::set<std::string> visiting;
    return pendingOf(usr, narrow, parameter, why, visiting);
  }
  /// The most any caller needs after `usr` returns.
  unsigned next(const std::string &usr, std::string &why) {
    std::set<std::string> visiting;
    return nextOf(usr, why, visiting);
  }
  Blocking parameterBlocking(const std::string &usr, int parameter, std::string &why) {
    std::set<std::string> visiting;
    return parameterOf(usr, parameter, why, visiting);
  }
  /// Whether every call of `usr` passes the legacy stream (0, NULL,
  /// cudaStreamLegacy, an omitted default) for `parameter`, directly or
  /// through its callers' parameters.
  bool passesOnlyLegacy(const std::string &usr, int parameter, unsigned depth = 0) {
    auto calls = callsTo_.find(usr);
    if (depth > 16 || calls == callsTo_.end() || calls->second.empty() ||
        !openReason(usr).empty())
      return false;
    for (const OrderedCall *call : calls->second) {
      auto argument = call->streams.find(parameter);
      if (argument == call->streams.end())
        return false;
      const StreamSource &source = argument->second;
      if (source.kind == StreamSource::CallerParameter) {
        if (!passesOnlyLegacy(call->caller, source.parameter, depth + 1))
          return false;
      } else if (source.kind != StreamSource::Known || source.spelled != "0") {
        return false;
      }
    }
    return true;
  }

  Blocking variableBlocking(const std::string &variable, std::string &why) {
    std::set<std::string> visiting;
    return variableOf(variable, why, visiting);
  }

private:
  unsigned pendingOf(const std::string &usr, bool narrow, int parameter, std::string &why,
                     std::set<std::string> &visiting) {
    if (isMain(usr))
      return NothingPending;
    if (std::string open = openReason(usr); !open.empty()) {
      why = open;
      return OtherPending;
    }
    if (!visiting.insert(usr).second) {
      why = "it is called recursively";
      return OtherPending;
    }
    unsigned worst = NothingPending;
    for (const OrderedCall *call : callsTo_[usr]) {
      unsigned here = narrow ? call->pendingNarrow : call->pendingMove;
      std::string reason = here ? "its call at " + shortPoint(call->site) + " (in '" +
                                      call->callerName + "') follows " + call->pendingWhat
                                : "";
      for (int other : call->pendingOnParameters)
        if (other != parameter && here < OtherPending) {
          here = OtherPending;
          reason = "its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                   "') follows work on the stream it passes as another argument";
        }
      for (const std::string &earlier : call->pendingCalls) {
        std::set<std::string> seen;
        unsigned left = leaves(earlier, narrow, seen);
        if (left > here) {
          here = left;
          reason = "its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                   "') follows a call of '" + nameOf(earlier) +
                   "', which returns with work still pending";
        }
      }
      if (narrow)
        for (const std::string &earlier : call->coveredCalls) {
          std::set<std::string> visiting;
          if (here < OtherPending && !blockingOnly(earlier, visiting)) {
            here = OtherPending;
            reason = "its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                     "') follows a call of '" + nameOf(earlier) +
                     "', which may return with work pending that the caller's copy to the host did not "
                     "wait for (on a stream not known to be blocking, or on another device)";
          }
        }
      if (call->pendingReachesEntry) {
        std::string upstream;
        auto passed = call->streams.find(parameter);
        int upward = passed != call->streams.end() &&
                             passed->second.kind == StreamSource::CallerParameter
                         ? passed->second.parameter
                         : -1;
        unsigned above = pendingOf(call->caller, narrow, upward, upstream, visiting);
        if (above > here) {
          here = above;
          reason = "'" + call->callerName + "', which calls it at " + shortPoint(call->site) +
                   ", is itself called with work pending: " + upstream;
        }
      }
      if (here > worst) {
        worst = here;
        why = reason;
      }
    }
    visiting.erase(usr);
    return worst;
  }

  unsigned nextOf(const std::string &usr, std::string &why, std::set<std::string> &visiting) {
    if (isMain(usr))
      return NextWaits;
    if (std::string open = openReason(usr); !open.empty()) {
      why = open;
      return NextDepends;
    }
    if (!visiting.insert(usr).second) {
      why = "it is called recursively";
      return NextDepends;
    }
    unsigned worst = NextWaits;
    for (const OrderedCall *call : callsTo_[usr]) {
      unsigned here = call->next;
      std::string reason = "after its call at " + shortPoint(call->site) + " (in '" +
                           call->callerName + "') comes " + call->nextWhat;
      bool decided = false;
      for (const std::string &later : call->nextCalls) {
        std::set<std::string> seen;
        auto [level, decides] = firstOf(later, seen);
        if (level > here) {
          here = level;
          reason = "after its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                   "') comes a call of '" + nameOf(later) + "', which relies on the legacy stream";
        }
        if (decides) {
          decided = true;
          break;
        }
      }
      if (call->nextReachesReturn && !decided) {
        std::string downstream;
        unsigned below = nextOf(call->caller, downstream, visiting);
        if (below > here) {
          here = below;
          reason = "'" + call->callerName + "' returns after calling it at " +
                   shortPoint(call->site) + ", and " + downstream;
        }
      }
      if (here > worst) {
        worst = here;
        why = reason;
      }
    }
    visiting.erase(usr);
    return worst;
  }

  std::string nameOf(const std::string &usr) const {
    auto found = functions_.find(usr);
    return found == functions_.end() ? usr : found->second->name;
  }

  /// What `usr`'s own work and its callees' leave pending at its return.
  unsigned leaves(const std::string &usr, bool narrow, std::set<std::string> &seen) const {
    auto found = functions_.find(usr);
    if (found == functions_.end() || !seen.insert(usr).second)
      return OtherPending;
    const OrderedFunction &f = *found->second;
    unsigned level = narrow ? f.leavesNarrow : f.leavesMove;
    for (const std::string &callee : f.leavesCalls)
      level = std::max(level, leaves(callee, narrow, seen));
    if (narrow)
      for (const std::string &callee : f.leavesCoveredCalls) {
        std::set<std::string> visiting;
        if (!blockingOnly(callee, visiting))
          level = OtherPending;
      }
    return level;
  }

  bool blockingOnly(const std::string &usr, std::set<std::string> &visiting) const {
    return leavesOnlyBlockingWork(functions_, usr, visiting);
  }

  /// What `usr` does first (a level) and whether that decides.
  std::pair<unsigned, bool> firstOf(const std::string &usr, std::set<std::string> &seen) const {
    auto found = functions_.find(usr);
    if (found == functions_.end() || !seen.insert(usr).second)
      return {NextDepends, true};
    const OrderedFunction &f = *found->second;
    unsigned level = f.first;
    for (const std::string &callee : f.firstCalls) {
      auto [inner, decides] = firstOf(callee, seen);
      level = std::max(level, inner);
      if (decides)
        return {level, true};
    }
    return {level, f.firstDecides};
  }

  Blocking sourceBlocking(const StreamSource &source, const OrderedCall *call,
                          std::string &why, std::set<std::string> &visiting) {
    switch (source.kind) {
    case StreamSource::Known:
      if (source.blocking == Blocking::Unknown)
        why = "'" + source.spelled + "'" +
              (call ? " passed at " + shortPoint(call->site) : std::string()) +
              " is not created by cudaStreamCreate* where it is declared";
      return source.blocking;
    case StreamSource::CallerParameter:
      return call ? parameterOf(call->caller, source.parameter, why, visiting) : Blocking::Unknown;
    case StreamSource::Variable:
      return variableOf(source.variable, why, visiting);
    }
    return Blocking::Unknown;
  }

  static Blocking join(std::optional<Blocking> &seen, Blocking one) {
    if (!seen)
      seen = one;
    else if (*seen != one)
      seen = Blocking::Unknown;
    return *seen;
  }

  Blocking parameterOf(const std::string &usr, int parameter, std::string &why,
                       std::set<std::string> &visiting) {
    if (std::string open = openReason(usr); !open.empty()) {
      why = "its function may be called from outside the program (" + open + ")";
      return Blocking::Unknown;
    }
    std::string key = usr + "#" + std::to_string(parameter);
    if (!visiting.insert(key).second) {
      why = "it is passed on recursively";
      return Blocking::Unknown;
    }
    std::optional<Blocking> seen;
    for (const OrderedCall *call : callsTo_[usr]) {
      auto argument = call->streams.find(parameter);
      if (argument == call->streams.end()) {
        why = "the call at " + shortPoint(call->site) + " passes no stream there";
        seen = Blocking::Unknown;
        break;
      }
      if (join(seen, sourceBlocking(argument->second, call, why, visiting)) == Blocking::Unknown) {
        if (why.empty())
          why = "its callers pass both blocking and non-blocking streams";
        break;
      }
    }
    visiting.erase(key);
    return seen.value_or(Blocking::Unknown);
  }

  Blocking variableOf(const std::string &variable, std::string &why,
                      std::set<std::string> &visiting) {
    auto found = writes_.find(variable);
    if (found == writes_.end()) {
      why = "no write of it is in the analyzed program";
      return Blocking::Unknown;
    }
    if (!visiting.insert(variable).second)
      return Blocking::Unknown;
    std::optional<Blocking> seen;
    for (const StreamSource *source : found->second)
      if (join(seen, sourceBlocking(*source, nullptr, why, visiting)) == Blocking::Unknown) {
        if (why.empty())
          why = "it is created both blocking and non-blocking";
        break;
      }
    visiting.erase(variable);
    return seen.value_or(Blocking::Unknown);
  }

  FunctionsByUsr functions_;
  std::map<std::string, std::vector<const OrderedCall *>> callsTo_;
  std::set<std::string> addressTaken_;
  std::map<std::string, std::vector<const StreamSource *>> writes_;
  bool hasMain_ = false;
  std::vector<std::string> streamCreations_, hostThreads_;
};

bool samePoint(const SourcePoint &a, const SourcePoint &b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

/// The verdict for one fix under the program's facts.
void resolveOne(const ConditionalFix &conditional, ProgramOrdering &program,
                const CalleeLeaves &callees, FixIt &fix) {
  std::string pendingWhy, nextWhy, blockingWhy;
  int parameter = conditional.target.kind == StreamSource::CallerParameter
                      ? conditional.target.parameter
                      : -1;
  unsigned pending =
      program.pending(conditional.function, conditional.narrow, parameter, pendingWhy);
  unsigned next = conditional.narrow ? NextWaits : program.next(conditional.function, nextWhy);
  Blocking blocking = conditional.target.blocking;
  if (conditional.target.kind == StreamSource::CallerParameter)
    blocking = program.parameterBlocking(conditional.function, conditional.target.parameter,
                                         blockingWhy);
  else if (conditional.target.kind == StreamSource::Variable)
    blocking = program.variableBlocking(conditional.target.variable, blockingWhy);
  const ConditionalFix::Case *chosen = nullptr;
  // Calls that get the target were judged as work on it too: their callees
  // put all their own work on that parameter.
  bool calleesOnTarget =
      !conditional.calleesOnTarget.empty() &&
      std::all_of(conditional.calleesOnTarget.begin(), conditional.calleesOnTarget.end(), [&](const std::pair<std::string, int> &callee) {
        return program.onlyParameter(callee.first) == callee.second;
      });
  for (const ConditionalFix::Case &one :
       calleesOnTarget ? conditional.casesIfCallees : conditional.cases)
    if (one.blocking == blocking)
      chosen = &one;
  unsigned bit = pending * Levels + next;
  // Judged with the calls walked over as their callees' summaries say:
  // holds when every one of them does (the first that does not blocks).
  std::string calleeProblem, leaveBroken, leaveNote;
  if (!(chosen && (chosen->safe & (1u << bit))))
    for (const ConditionalFix::Case &one : conditional.casesIfCalleesLeave) {
      if (one.blocking != blocking)
        continue;
      for (const CalleeNeed &need : one.needs)
        if (calleeProblem.empty())
          calleeProblem = callees.problem(need, conditional);
      if (!(one.safe & (1u << bit))) {
        // Blocks whatever the callees leave; a call that blocks too is named.
        leaveBroken = one.brokenBy[bit] + (calleeProblem.empty() ? "" : "; and " + calleeProblem);
        calleeProblem.clear();
        continue;
      }
      for (const auto &[usr, parameter] : one.onTarget)
        if (calleeProblem.empty() && callees.onlyParameter(usr) != parameter)
          calleeProblem = "a call walked over passes '" + conditional.target.spelled +
                          "' to a function whose work is not all on that stream";
      if (calleeProblem.empty()) {
        chosen = &one;
        for (const CalleeNeed &need : one.needs)
          leaveNote += (leaveNote.empty() ? "" : ", ") + ("'" + need.calleeName + "' at " + need.site);
      }
    }
  fix.description = conditional.description;
  if (conditional.perThreadTarget) {
    if (std::string problem = program.perThreadProblem(); !problem.empty()) {
      fix.applicable = false;
      fix.description += "; not applied by --fix: " + problem;
      return;
    }
  }
  // Safe, but nothing would change: the work would stay on the legacy stream.
  if (conditional.target.kind == StreamSource::CallerParameter &&
      program.passesOnlyLegacy(conditional.function, conditional.target.parameter)) {
    fix.applicable = false;
    fix.description += "; not applied by --fix: every caller of '" + conditional.functionName +
                       "' passes the legacy stream (0) for '" + conditional.target.spelled +
                       "', so the work would stay on it";
    return;
  }
  if (chosen && (chosen->safe & (1u << bit))) {
    fix.applicable = true;
    fix.edits.insert(fix.edits.end(), chosen->waits.begin(), chosen->waits.end());
    if (!chosen->waits.empty())
      fix.description += ", and wait for it (cudaStreamSynchronize) before " +
                         chosen->waitNote + ", which relied on the legacy stream's ordering";
    if (!program.isMain(conditional.function))
      fix.description += " (ordering judged with every caller of '" + conditional.functionName +
                         "' in the analyzed program)";
    if (!leaveNote.empty())
      fix.description += " (judged with what the calls of " + leaveNote +
                         " leave pending, from the whole program)";
    if (conditional.perThreadTarget)
      fix.description += " (the program creates streams and starts no host thread)";
    return;
  }
  fix.applicable = false;
  std::string broken = !calleeProblem.empty() ? calleeProblem
                       : !leaveBroken.empty() ? leaveBroken
                       : chosen               ? chosen->brokenBy[bit]
                                              : "";
  std::string blocks;
  if (!chosen || broken.empty())
    blocks = "stream '" + conditional.target.spelled + "' is not known to be blocking or "
             "non-blocking in the program" + (blockingWhy.empty() ? "" : ": " + blockingWhy);
  else {
    blocks = broken;
    std::vector<std::string> because;
    if (pending != NothingPending && !pendingWhy.empty())
      because.push_back("before it runs: " + pendingWhy);
    if (next != NextWaits && !nextWhy.empty())
      because.push_back("after it returns: " + nextWhy);
    if (conditional.target.kind != StreamSource::Known && blocking == Blocking::Unknown)
      because.push_back("'" + conditional.target.spelled + "' is not known to be blocking" +
                        (blockingWhy.empty() ? "" : ": " + blockingWhy));
    if (!because.empty()) {
      blocks += " [the callers of '" + conditional.functionName + "' decide: ";
      for (size_t i = 0; i < because.size(); ++i)
        blocks += (i ? "; " : "") + because[i];
      blocks += "]";
    }
  }
  fix.description += "; not applied by --fix: " + blocks;
}

} // namespace

void resolveConditionalFixes(OrderingFacts facts, std::vector<Finding> &findings) {
  if (facts.fixes.empty())
    return;
  facts.normalize();
  ProgramOrdering program(facts);
  CalleeLeaves callees(facts);
  for (const ConditionalFix &conditional : facts.fixes)
    for (Finding &finding : findings) {
      if (finding.checkId != conditional.check || !samePoint(finding.location, conditional.finding))
        continue;
      for (FixIt &fix : finding.fixes)
        if (!fix.edits.empty() && samePoint(fix.edits.front().begin, conditional.firstEdit))
          resolveOne(conditional, program, callees, fix);
    }
}

} // namespace streamlint::ordering
