// CalleeLeaves.h: judging the calls of user functions a fix's walk went
// over by what their callees leave pending (docs/fixes.md, "Calls of user
// functions in the walk").
#include "analyzer/analysis/CalleeLeaves.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>

namespace streamlint::ordering {

namespace {

std::string shortPoint(const SourcePoint &p) {
  return llvm::sys::path::filename(p.file).str() + ":" + std::to_string(p.line);
}

/// `other`, applied, may move legacy-stream work of its function somewhere
/// the target of `fix` does not wait for: to a stream variable, or (unless
/// `fix` targets it too) to the per-thread default stream.
bool mayMoveLegacyWork(const ConditionalFix &other, const ConditionalFix &fix) {
  if (fix.perThreadTarget)
    return !other.narrow && !other.perThreadTarget;
  return !other.narrow || other.perThreadTarget;
}

} // namespace

void functionsByUsr(const OrderingFacts &facts, FunctionsByUsr &all, FunctionsByUsr &reliable) {
  for (const OrderedFunction &f : facts.functions) {
    all[f.usr] = &f;
    if (f.definedDifferently.empty())
      reliable[f.usr] = &f;
  }
}

std::string unknownDefinition(const FunctionsByUsr &all, const std::string &usr) {
  auto found = all.find(usr);
  if (found == all.end() || found->second->definedDifferently.empty())
    return "whose definition is not in the analyzed program";
  return "which is " + found->second->definedDifferently +
         " (two programs in one compile database?): which one is called here is not known";
}

CalleeLeaves::CalleeLeaves(const OrderingFacts &facts) {
  functionsByUsr(facts, all_, functions_);
  for (const OrderedCall &c : facts.calls)
    calls_[c.caller].insert(c.callee);
  for (const ConditionalFix &f : facts.fixes)
    fixesIn_[f.function].push_back(&f);
}

namespace {

int onlyParameterThrough(const FunctionsByUsr &functions, const std::string &usr,
                         const FunctionAfterFix *after, std::set<std::string> &visiting) {
  int only = -1;
  const std::vector<std::pair<std::string, int>> *calls = nullptr;
  if (after && after->usr == usr) {
    only = after->onlyParameter;
    calls = &after->calls;
  } else {
    auto found = functions.find(usr);
    if (found == functions.end())
      return -1;
    const OrderedFunction &f = *found->second;
    if (f.onlyParameter != -1 || f.onlyParameterIfCallees == -1)
      return f.onlyParameter;
    only = f.onlyParameterIfCallees;
    calls = &f.onlyParameterCalls;
  }
  if (only == -1 || calls->empty())
    return only;
  if (!visiting.insert(usr).second)
    return -1; // recursion: not known
  for (const auto &[callee, parameter] : *calls) {
    int inner = onlyParameterThrough(functions, callee, after, visiting);
    if (inner != NoDeviceWork && (parameter < 0 || inner != parameter)) {
      only = -1;
      break;
    }
  }
  visiting.erase(usr);
  return only;
}

} // namespace

int onlyParameterThroughCalls(const FunctionsByUsr &functions, const std::string &usr,
                              const FunctionAfterFix *after) {
  std::set<std::string> visiting;
  return onlyParameterThrough(functions, usr, after, visiting);
}

bool allWorkOnParameter(const FunctionsByUsr &functions, const std::string &callee,
                        int calleeParameter, const FunctionAfterFix *after) {
  int only = onlyParameterThroughCalls(functions, callee, after);
  return only == NoDeviceWork || (calleeParameter >= 0 && only == calleeParameter);
}

int CalleeLeaves::onlyParameter(const std::string &usr) const {
  return onlyParameterThroughCalls(functions_, usr);
}

std::string functionName(const FunctionsByUsr &all, const std::string &usr) {
  if (auto found = all.find(usr); found != all.end())
    return found->second->name;
  // Not defined in the program: the name its USR spells ("c:@F@name#I#",
  // "c:@N@ns@S@Class@F@method#"), else the USR itself.
  size_t at = usr.rfind("@F@");
  if (at == std::string::npos)
    return usr;
  std::string name = usr.substr(at + 3, usr.find('#', at + 3) - (at + 3));
  return name.empty() ? usr : name;
}

std::string CalleeLeaves::nameOf(const std::string &usr) const {
  return functionName(all_, usr);
}

std::set<std::string> CalleeLeaves::reachable(const std::string &usr, bool &recursive) const {
  std::set<std::string> seen, onStack;
  std::function<void(const std::string &)> visit = [&](const std::string &f) {
    seen.insert(f);
    onStack.insert(f);
    auto callees = calls_.find(f);
    if (callees != calls_.end())
      for (const std::string &callee : callees->second) {
        if (onStack.count(callee))
          recursive = true;
        else if (!seen.count(callee))
          visit(callee);
      }
    onStack.erase(f);
  };
  visit(usr);
  return seen;
}

bool leavesOnlyBlockingWork(const FunctionsByUsr &functions, const std::string &usr,
                            std::set<std::string> &visiting) {
  auto found = functions.find(usr);
  if (found == functions.end() || !found->second->leavesBlockingOnly ||
      !visiting.insert(usr).second)
    return false;
  const OrderedFunction &f = *found->second;
  bool only = true;
  for (const std::vector<std::string> *list : {&f.leavesCalls, &f.leavesCoveredCalls})
    for (const std::string &callee : *list)
      only = only && leavesOnlyBlockingWork(functions, callee, visiting);
  visiting.erase(usr);
  return only;
}

unsigned leavesThroughCalls(const FunctionsByUsr &functions, const std::string &usr,
                            bool narrow, std::set<std::string> &stack, LeavesMemo *memo,
                            LeavesExplanation *why) {
  auto found = functions.find(usr);
  if (found == functions.end()) {
    if (why)
      why->problem = "which calls '" + functionName(*why->all, usr) + "', " +
                     unknownDefinition(*why->all, usr);
    return OtherPending;
  }
  if (stack.count(usr)) {
    if (why)
      why->problem = "which is recursive, so what it leaves pending is not known";
    return OtherPending;
  }
  if (memo && !why)
    if (auto known = memo->find({usr, narrow}); known != memo->end())
      return known->second;
  stack.insert(usr);
  const OrderedFunction &f = *found->second;
  unsigned level = narrow ? f.leavesNarrow : f.leavesMove;
  std::string what = f.leavesWhat;
  for (const std::string &callee : f.leavesCalls) {
    if (why)
      why->what.clear(); // the callee's, once it returns
    unsigned left = leavesThroughCalls(functions, callee, narrow, stack, memo, why);
    if (left > level) {
      level = left;
      if (why)
        what = why->what + " (in '" + functionName(*why->all, callee) + "')";
    }
  }
  if (narrow)
    for (const std::string &callee : f.leavesCoveredCalls) {
      std::set<std::string> visiting;
      if (!leavesOnlyBlockingWork(functions, callee, visiting)) {
        level = OtherPending;
        if (why)
          what = "work of '" + functionName(*why->all, callee) +
                 "' on a stream not known to be blocking";
      }
    }
  stack.erase(usr);
  if (why)
    why->what = what;
  else if (memo)
    (*memo)[{usr, narrow}] = level;
  return level;
}

std::string CalleeLeaves::problem(const CalleeNeed &need, const ConditionalFix &fix) const {
  std::string call = need.subject + "the call of '" + need.calleeName + "' at " + need.site + ", ";
  if (!functions_.count(need.callee))
    return call + unknownDefinition(all_, need.callee) +
           ", so it may issue CUDA work on any stream";
  bool recursive = false;
  std::set<std::string> callees = reachable(need.callee, recursive);
  if (recursive)
    return call + "which is recursive, so what it leaves pending is not known";
  if (callees.count(fix.function))
    return call + "which calls '" + fix.functionName +
           "' back, so what it leaves pending depends on this fix";
  for (const std::string &usr : callees)
    if (auto f = functions_.find(usr); f != functions_.end() && f->second->selectsDevice)
      return call + "which selects a device" +
             (usr == need.callee ? "" : " (through '" + nameOf(usr) + "')") +
             ", so its work may be on another device, whose legacy stream orders nothing here";
  int only = onlyParameter(need.callee);
  if (only == NoDeviceWork)
    return "";
  unsigned level = OtherPending;
  std::string what;
  if (need.legacyParameter >= 0 && only == need.legacyParameter) {
    level = LegacyPending; // all of its work is on the stream this call leaves at 0
    what = "its work on the legacy stream (it issues all of it to the stream argument that "
           "this call leaves to the legacy stream)";
  } else {
    std::set<std::string> stack;
    LeavesExplanation why{&all_, "", ""};
    level = leavesThroughCalls(functions_, need.callee, need.narrow, stack, nullptr, &why);
    if (!why.problem.empty())
      return call + why.problem;
    what = why.what;
  }
  if (level > need.allowed) {
    if (level == LegacyPending)
      return call + "which may return with " + what + " still running; " + need.legacyUncovered;
    return call + "which may return with " + (what.empty() ? "work" : what) +
           " still running";
  }
  if (level == LegacyPending)
    for (const std::string &usr : callees) {
      auto fixes = fixesIn_.find(usr);
      if (fixes == fixesIn_.end())
        continue;
      for (const ConditionalFix *other : fixes->second)
        if (mayMoveLegacyWork(*other, fix))
          return call + "which may return with work still running on the legacy stream, and "
                        "the " + other->check + " fix at " + shortPoint(other->finding) +
                        " may move that work to another stream";
    }
  return "";
}

} // namespace streamlint::ordering
