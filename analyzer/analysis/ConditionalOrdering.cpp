// The fixes whose ordering verdict the whole program decides: judged here
// under every assumption (CallerOrdering.h), kept per TU until the driver
// puts them into the TU's ordering facts.
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/StreamSources.h"

#include <map>
#include <mutex>

namespace streamlint {

using namespace ordering;

namespace {

/// Conditional fixes by TU until the driver takes them (checks run on one
/// thread per TU). A part of the TU's context once checks own their parts.
std::mutex recordedMutex;
std::map<const TranslationUnitContext *, std::vector<ConditionalFix>> recorded;

} // namespace

namespace {

/// Adds `need` to `needs`: one per call site, the strictest.
void addNeed(std::vector<CalleeNeed> &needs, CalleeNeed need) {
  for (CalleeNeed &earlier : needs)
    if (earlier.callee == need.callee && earlier.site == need.site) {
      if (need.allowed < earlier.allowed)
        earlier = std::move(need);
      return;
    }
  needs.push_back(std::move(need));
}

/// The fix's verdict under each assumed blocking of its target (nullopt: as
/// the function shows it) and each level of the callers' pending work and
/// next operation. Adds the calls judged as work on the target to
/// `conditional`; `anySafe` tells whether some assumption keeps every edge.
std::vector<ConditionalFix::Case>
judgeCases(ConditionalFix &conditional, const std::vector<std::optional<Blocking>> &cases,
           bool calleesOnTarget, bool &anySafe,
           llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge,
           bool calleesLeave = false) {
  std::vector<ConditionalFix::Case> judged;
  for (const std::optional<Blocking> &assumed : cases) {
    ConditionalFix::Case one;
    one.blocking = assumed ? *assumed : conditional.target.blocking;
    one.brokenBy.resize(Levels * Levels);
    for (unsigned pending = 0; pending < Levels; ++pending)
      for (unsigned next = 0; next < Levels; ++next) {
        OrderingAssumption assumption;
        assumption.calleesOnTarget = calleesOnTarget || calleesLeave;
        assumption.calleesLeave = calleesLeave;
        assumption.pending = pending;
        assumption.next = conditional.narrow ? unsigned(NextDepends) : next;
        if (assumed)
          assumption.target = fromBlocking(*assumed);
        assumption.describeFunctionAfter = conditional.onlyParameterAfter == -1 && judged.empty() &&
                                           pending == 0 && next == 0;
        OrderingVerdict verdict = judge(assumption);
        if (verdict.onlyParameterAfter != -1 && conditional.onlyParameterAfter == -1) {
          conditional.onlyParameterAfter = verdict.onlyParameterAfter;
          conditional.onlyParameterAfterCalls = verdict.onlyParameterAfterCalls;
        }
        // The third judgement keeps its assumptions per case (they depend
        // on the target's blocking); the second one's hold for all cases.
        auto &onTarget = calleesLeave ? one.onTarget : conditional.calleesOnTarget;
        for (auto &callee : verdict.assumedCallees)
          if (!llvm::is_contained(onTarget, callee))
            onTarget.push_back(callee);
        for (CalleeNeed &need : verdict.calleeNeeds)
          addNeed(one.needs, std::move(need));
        unsigned bit = pending * Levels + next;
        if (verdict.keepsOrdering) {
          one.safe |= 1u << bit;
          if (one.waits.empty()) {
            one.waits = verdict.waits;
            one.waitNote = verdict.waitNote;
          }
        } else {
          one.brokenBy[bit] = verdict.brokenBy;
        }
      }
    anySafe = anySafe || one.safe;
    judged.push_back(std::move(one));
  }
  return judged;
}

/// The third judgement (calls of user functions judged by what their
/// callees leave pending), kept when it has cases with needs to check.
void judgeCalleesLeave(ConditionalFix &result, const std::vector<std::optional<Blocking>> &cases,
                       bool &anySafe,
                       llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge) {
  bool safeIfLeave = false;
  std::vector<ConditionalFix::Case> ifLeave =
      judgeCases(result, cases, false, safeIfLeave, judge, /*calleesLeave=*/true);
  if (safeIfLeave && llvm::any_of(ifLeave, [](const ConditionalFix::Case &one) {
        return one.safe && !one.needs.empty();
      })) {
    result.casesIfCalleesLeave = std::move(ifLeave);
    anySafe = true;
  }
}

} // namespace

std::optional<ConditionalFix>
conditionalOrdering(const clang::FunctionDecl &function, const clang::ValueDecl &target,
                    bool narrow,
                    llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge) {
  ConditionalFix result;
  result.function = orderingKey(function);
  result.functionName = function.getNameAsString();
  result.narrow = narrow;
  result.target.spelled = target.getNameAsString();
  if (result.function.empty())
    return std::nullopt;
  std::vector<std::optional<Blocking>> cases = {Blocking::Blocking, Blocking::NonBlocking,
                                                Blocking::Unknown};
  const auto *var = llvm::dyn_cast<clang::VarDecl>(&target);
  if (const auto *parameter = llvm::dyn_cast<clang::ParmVarDecl>(&target)) {
    if (parameter->getDeclContext() != &function &&
        parameter->getDeclContext() != function.getCanonicalDecl())
      return std::nullopt;
    result.target.kind = StreamSource::CallerParameter;
    result.target.parameter = int(parameter->getFunctionScopeIndex());
  } else if (var && var->isLocalVarDecl()) {
    result.target.blocking = toBlocking(blockingOf(var, function, function.getASTContext()));
    cases = {std::nullopt}; // as the function shows it
  } else if ((var && var->hasGlobalStorage()) || llvm::isa<clang::FieldDecl>(target)) {
    result.target.kind = StreamSource::Variable;
    result.target.variable = orderingKey(target);
    if (result.target.variable.empty())
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (function.isMain()) {
    // main has no callers: only its calls of user functions may still
    // depend on the whole program.
    bool anySafe = false;
    result.cases = judgeCases(result, cases, false, anySafe, judge);
    if (anySafe)
      return std::nullopt; // decided in its TU
    result.calleesOnTarget.clear();
    judgeCalleesLeave(result, cases, anySafe, judge);
    if (!anySafe)
      return std::nullopt;
    return result;
  }
  bool anySafe = false;
  result.cases = judgeCases(result, cases, false, anySafe, judge);
  result.calleesOnTarget.clear();
  // Judged again with the calls that pass the target as work on it: the
  // whole program decides which judgement holds.
  std::vector<ConditionalFix::Case> ifCallees = judgeCases(result, cases, true, anySafe, judge);
  if (!result.calleesOnTarget.empty())
    result.casesIfCallees = std::move(ifCallees);
  judgeCalleesLeave(result, cases, anySafe, judge);
  if (!anySafe)
    return std::nullopt;
  return result;
}

std::optional<ConditionalFix>
perThreadConditional(const clang::FunctionDecl &function, bool narrow,
                     llvm::function_ref<OrderingVerdict(const OrderingAssumption &)> judge) {
  ConditionalFix result;
  result.function = orderingKey(function);
  result.functionName = function.getNameAsString();
  result.narrow = narrow;
  result.perThreadTarget = true;
  result.target.blocking = Blocking::Blocking;
  result.target.spelled = "cudaStreamPerThread";
  if (result.function.empty())
    return std::nullopt;
  bool anySafe = false;
  result.cases = judgeCases(result, {std::nullopt}, false, anySafe, judge);
  result.calleesOnTarget.clear();
  judgeCalleesLeave(result, {std::nullopt}, anySafe, judge);
  if (!anySafe)
    return std::nullopt;
  return result;
}

void recordConditionalFix(ConditionalFix conditional, const Finding &finding, const FixIt &fix,
                          std::string descriptionBefore, TranslationUnitContext &context) {
  if (fix.edits.empty())
    return;
  conditional.check = finding.checkId;
  conditional.finding = finding.location;
  conditional.firstEdit = fix.edits.front().begin;
  conditional.description = std::move(descriptionBefore);
  std::lock_guard<std::mutex> lock(recordedMutex);
  recorded[&context].push_back(std::move(conditional));
}

std::vector<ConditionalFix> takeConditionalFixes(const TranslationUnitContext &context) {
  std::lock_guard<std::mutex> lock(recordedMutex);
  auto found = recorded.find(&context);
  if (found == recorded.end())
    return {};
  std::vector<ConditionalFix> fixes = std::move(found->second);
  recorded.erase(found);
  return fixes;
}

} // namespace streamlint
