#include "analyzer/analysis/ProgramOrdering.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace streamlint::ordering {

namespace {

std::string shortPoint(const SourcePoint &p) {
  return llvm::sys::path::filename(p.file).str() + ":" + std::to_string(p.line);
}

} // namespace

ProgramOrdering::ProgramOrdering(const OrderingFacts &facts) {
  functionsByUsr(facts, all_, functions_);
  for (const OrderedFunction &f : facts.functions)
    hasMain_ = hasMain_ || f.isMain;
  for (const OrderedCall &c : facts.calls)
    callsTo_[c.callee].push_back(&c);
  addressTaken_.insert(facts.addressTaken.begin(), facts.addressTaken.end());
  for (const StreamWrite &w : facts.writes)
    writes_[w.variable].push_back(&w.value);
  streamCreations_ = facts.streamCreations;
  hostThreads_ = facts.hostThreads;
  units_ = facts.units;
  for (const UnitProgramFacts &unit : units_)
    if (!unit.mainFile.empty())
      mainFiles_.insert(unit.mainFile);
  startupCalls_.insert(facts.startupCalls.begin(), facts.startupCalls.end());
  for (const UnitProgramFacts &unit : units_)
    for (const ProgramEvent &use : unit.addressTakers)
      takers_[use.what].push_back({&unit, use.function});
  if (units_.empty())
    for (const ProgramEvent &use : facts.addressTakers)
      takers_[use.what].push_back({nullptr, use.function});
}

int ProgramOrdering::onlyParameter(const std::string &usr) const {
  return onlyParameterThroughCalls(functions_, usr, after_ ? &*after_ : nullptr);
}

bool ProgramOrdering::onTarget(const std::vector<OrderedCall::CallOnParameter> &passedAlong,
                               size_t position, const std::string &callee, int parameter) const {
  if (parameter < 0)
    return false;
  for (const OrderedCall::CallOnParameter &along : passedAlong)
    if (along.position == int(position) && along.parameter == parameter)
      return allWorkOnParameter(functions_, callee, along.calleeParameter,
                                after_ ? &*after_ : nullptr);
  return false;
}

std::string ProgramOrdering::openReason(const std::string &usr) const {
  // Its callers, from every TU: where two programs define it, the calls
  // of both (more callers than either has).
  auto found = all_.find(usr);
  if (found == all_.end())
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

bool ProgramOrdering::isMain(const std::string &usr) const {
  auto found = all_.find(usr);
  return found != all_.end() && found->second->isMain;
}

unsigned ProgramOrdering::pending(const std::string &usr, bool narrow, int parameter,
                                  std::string &why) {
  std::set<std::string> visiting;
  return pendingOf(usr, narrow, parameter, why, visiting);
}

unsigned ProgramOrdering::next(const std::string &usr, int parameter, std::string &why) {
  std::set<std::string> visiting;
  return nextOf(usr, parameter, why, visiting);
}

Blocking ProgramOrdering::parameterBlocking(const std::string &usr, int parameter,
                                            std::string &why) {
  std::set<std::string> visiting;
  return parameterOf(usr, parameter, why, visiting);
}

bool ProgramOrdering::passesOnlyLegacy(const std::string &usr, int parameter, unsigned depth) {
  auto calls = callsTo_.find(usr);
  if (depth > 16 || calls == callsTo_.end() || calls->second.empty() || !openReason(usr).empty())
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

Blocking ProgramOrdering::variableBlocking(const std::string &variable, std::string &why) {
  std::set<std::string> visiting;
  return variableOf(variable, why, visiting);
}

unsigned ProgramOrdering::pendingOf(const std::string &usr, bool narrow, int parameter,
                                    std::string &why, std::set<std::string> &visiting) {
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
    for (size_t position = 0; position < call->pendingCalls.size(); ++position) {
      const std::string &earlier = call->pendingCalls[position];
      // All its work is on the stream this call passes for the target:
      // the moved work (or the narrowed wait) waits for it anyway.
      if (onTarget(call->pendingCallsOnParameters, position, earlier, parameter))
        continue;
      std::set<std::string> seen;
      unsigned left = leavesThroughCalls(functions_, earlier, narrow, seen, &leavesMemo_, nullptr);
      if (left > here) {
        here = left;
        std::string unknown =
            functions_.count(earlier) ? std::string() : unknownDefinition(all_, earlier);
        reason = "its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                 "') follows a call of '" + nameOf(earlier) + "', " +
                 (unknown.empty() ? "which returns with work still pending" : unknown);
      }
    }
    if (narrow)
      for (const std::string &earlier : call->coveredCalls) {
        std::set<std::string> visiting;
        if (here < OtherPending && !blockingOnly(earlier, visiting)) {
          here = OtherPending;
          reason =
              "its call at " + shortPoint(call->site) + " (in '" + call->callerName +
              "') follows a call of '" + nameOf(earlier) +
              "', which may return with work pending that the caller's copy to the host did not "
              "wait for (on a stream not known to be blocking, or on another device)";
        }
      }
    if (call->pendingReachesEntry) {
      std::string upstream;
      auto passed = call->streams.find(parameter);
      int upward =
          passed != call->streams.end() && passed->second.kind == StreamSource::CallerParameter
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

unsigned ProgramOrdering::nextOf(const std::string &usr, int parameter, std::string &why,
                                 std::set<std::string> &visiting) {
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
    // Where the target is the stream this call passes for `parameter`: the
    // walk that counts work on that stream as after the moved work.
    const OrderedCall::NextOnParameter *onParameter = nullptr;
    for (const OrderedCall::NextOnParameter &variant : call->nextOnParameters)
      if (parameter >= 0 && variant.parameter == parameter)
        onParameter = &variant;
    unsigned here = onParameter ? onParameter->level : call->next;
    const std::string &nextWhat = onParameter ? onParameter->what : call->nextWhat;
    const std::vector<std::string> &nextCalls = onParameter ? onParameter->calls : call->nextCalls;
    bool reachesReturn = onParameter ? onParameter->reachesReturn : call->nextReachesReturn;
    std::string reason = "after its call at " + shortPoint(call->site) + " (in '" +
                         call->callerName + "') comes " + nextWhat;
    bool decided = false;
    for (size_t position = 0; position < nextCalls.size(); ++position) {
      const std::string &later = nextCalls[position];
      if (onParameter && onTarget(onParameter->callsOnParameter, position, later, parameter))
        continue; // all its work is on the moved work's stream, after it
      std::set<std::string> seen;
      auto [level, decides] = firstOf(later, seen);
      if (level > here) {
        here = level;
        std::string unknown =
            functions_.count(later) ? std::string() : unknownDefinition(all_, later);
        reason = "after its call at " + shortPoint(call->site) + " (in '" + call->callerName +
                 "') comes a call of '" + nameOf(later) + "', " +
                 (unknown.empty() ? "which relies on the legacy stream" : unknown);
      }
      if (decides) {
        decided = true;
        break;
      }
    }
    if (reachesReturn && !decided) {
      std::string downstream;
      auto passed = call->streams.find(parameter);
      int upward =
          passed != call->streams.end() && passed->second.kind == StreamSource::CallerParameter
              ? passed->second.parameter
              : -1;
      unsigned below = nextOf(call->caller, upward, downstream, visiting);
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

std::string ProgramOrdering::nameOf(const std::string &usr) const {
  return functionName(all_, usr);
}

bool ProgramOrdering::blockingOnly(const std::string &usr, std::set<std::string> &visiting) const {
  return leavesOnlyBlockingWork(functions_, usr, visiting);
}

std::pair<unsigned, bool> ProgramOrdering::firstOf(const std::string &usr,
                                                   std::set<std::string> &seen) const {
  // `seen` is the walk's stack, as for `leaves`.
  auto found = functions_.find(usr);
  if (found == functions_.end() || seen.count(usr))
    return {NextDepends, true};
  if (auto known = firstMemo_.find(usr); known != firstMemo_.end())
    return known->second;
  seen.insert(usr);
  const OrderedFunction &f = *found->second;
  std::pair<unsigned, bool> result{f.first, f.firstDecides};
  for (const std::string &callee : f.firstCalls) {
    auto [inner, decides] = firstOf(callee, seen);
    result.first = std::max(result.first, inner);
    if (decides) {
      result.second = true;
      break;
    }
  }
  seen.erase(usr);
  firstMemo_[usr] = result;
  return result;
}

Blocking ProgramOrdering::sourceBlocking(const StreamSource &source, const OrderedCall *call,
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

Blocking ProgramOrdering::join(std::optional<Blocking> &seen, Blocking one) {
  if (!seen)
    seen = one;
  else if (*seen != one)
    seen = Blocking::Unknown;
  return *seen;
}

Blocking ProgramOrdering::parameterOf(const std::string &usr, int parameter, std::string &why,
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

Blocking ProgramOrdering::variableOf(const std::string &variable, std::string &why,
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

} // namespace streamlint::ordering
