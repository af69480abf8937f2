// Resolving the conditional fixes of OrderingSummary.h from the program's
// facts (merged in OrderingFacts.cpp).
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/CalleeLeaves.h"
#include "analyzer/analysis/ProgramOrdering.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace streamlint::ordering {

namespace {

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
  std::optional<FunctionAfterFix> after;
  if (parameter >= 0 && conditional.onlyParameterAfter == parameter)
    after = FunctionAfterFix{conditional.function, conditional.onlyParameterAfter,
                             conditional.onlyParameterAfterCalls};
  program.judgeWithFixApplied(after);
  unsigned pending =
      program.pending(conditional.function, conditional.narrow, parameter, pendingWhy);
  unsigned next = conditional.narrow ? NextWaits : program.next(conditional.function, parameter, nextWhy);
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
    if (std::string problem = program.perThreadProblem(conditional.finding.file, conditional.function); !problem.empty()) {
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
