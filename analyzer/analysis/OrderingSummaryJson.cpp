// The JSON form of OrderingSummary.h's facts (carried in the TU summary).
#include "analyzer/analysis/OrderingSummary.h"

#include "analyzer/EditJson.h"
#include "analyzer/StoredJson.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace streamlint::ordering {

using nlohmann::json;

namespace {

Blocking blockingFrom(const std::string &name) {
  if (name == "blocking")
    return Blocking::Blocking;
  if (name == "non-blocking")
    return Blocking::NonBlocking;
  return Blocking::Unknown;
}

json sourceJson(const StreamSource &s) {
  return {{"kind", int(s.kind)}, {"blocking", blockingName(s.blocking)},
          {"parameter", s.parameter}, {"variable", s.variable}, {"spelled", s.spelled}};
}
StreamSource sourceFrom(const json &j) {
  StreamSource s;
  int kind = j.at("kind").get<int>();
  if (kind < 0 || kind > StreamSource::Variable)
    throw std::runtime_error("bad stream source kind");
  s.kind = StreamSource::Kind(kind);
  s.blocking = blockingFrom(j.at("blocking").get<std::string>());
  s.parameter = j.at("parameter").get<int>();
  s.variable = j.at("variable").get<std::string>();
  s.spelled = j.at("spelled").get<std::string>();
  return s;
}
unsigned level(const json &j) {
  unsigned value = j.get<unsigned>();
  if (value >= Levels)
    throw std::runtime_error("bad ordering level");
  return value;
}

json casesJson(const std::vector<ConditionalFix::Case> &cases) {
  json out = json::array();
  for (const ConditionalFix::Case &c : cases) {
    json waits = json::array();
    for (const TextEdit &e : c.waits)
      waits.push_back(editJson(e));
    json one = {{"blocking", blockingName(c.blocking)}, {"safe", c.safe},
                {"waits", waits}, {"waitNote", c.waitNote}, {"brokenBy", c.brokenBy}};
    if (!c.onTarget.empty() || !c.needs.empty()) {
      json onTarget = json::array(), needs = json::array();
      for (const auto &[usr, parameter] : c.onTarget)
        onTarget.push_back({{"callee", usr}, {"parameter", parameter}});
      for (const CalleeNeed &n : c.needs)
        needs.push_back({{"callee", n.callee}, {"calleeName", n.calleeName}, {"site", n.site},
                         {"narrow", n.narrow}, {"allowed", n.allowed},
                         {"legacyParameter", n.legacyParameter}, {"subject", n.subject},
                         {"legacyUncovered", n.legacyUncovered}});
      one["onTarget"] = onTarget;
      one["needs"] = needs;
    }
    out.push_back(std::move(one));
  }
  return out;
}

std::vector<ConditionalFix::Case> casesFrom(const json &cases) {
  std::vector<ConditionalFix::Case> out;
  for (const json &c : cases) {
    ConditionalFix::Case one;
    one.blocking = blockingFrom(c.at("blocking").get<std::string>());
    one.safe = c.at("safe").get<unsigned>();
    for (const json &e : c.at("waits"))
      one.waits.push_back(editFrom(e));
    one.waitNote = c.at("waitNote").get<std::string>();
    one.brokenBy = c.at("brokenBy").get<std::vector<std::string>>();
    if (one.brokenBy.size() != Levels * Levels)
      throw std::runtime_error("a conditional fix needs one verdict per assumption");
    if (c.contains("needs")) { // casesIfCalleesLeave only
      for (const json &t : c.at("onTarget"))
        one.onTarget.emplace_back(t.at("callee").get<std::string>(), t.at("parameter").get<int>());
      for (const json &n : c.at("needs")) {
        CalleeNeed need;
        need.callee = n.at("callee").get<std::string>();
        need.calleeName = n.at("calleeName").get<std::string>();
        need.site = n.at("site").get<std::string>();
        need.narrow = n.at("narrow").get<bool>();
        need.allowed = level(n.at("allowed"));
        need.legacyParameter = n.at("legacyParameter").get<int>();
        need.subject = n.at("subject").get<std::string>();
        need.legacyUncovered = n.at("legacyUncovered").get<std::string>();
        one.needs.push_back(std::move(need));
      }
    }
    out.push_back(std::move(one));
  }
  return out;
}

json callsOnParameterJson(const std::vector<OrderedCall::CallOnParameter> &list) {
  json out = json::array();
  for (const OrderedCall::CallOnParameter &c : list)
    out.push_back({{"position", c.position}, {"calleeParameter", c.calleeParameter},
                   {"parameter", c.parameter}});
  return out;
}

std::vector<OrderedCall::CallOnParameter> callsOnParameterFrom(const json &list) {
  std::vector<OrderedCall::CallOnParameter> out;
  for (const json &c : list) {
    OrderedCall::CallOnParameter one;
    one.position = c.at("position").get<int>();
    one.calleeParameter = c.at("calleeParameter").get<int>();
    one.parameter = c.at("parameter").get<int>();
    out.push_back(one);
  }
  return out;
}

} // namespace

std::string toJsonText(const OrderingFacts &facts) {
  json j;
  json &calls = j["calls"] = json::array();
  for (const OrderedCall &c : facts.calls) {
    json streams = json::array();
    for (const auto &[index, source] : c.streams)
      streams.push_back({{"parameter", index}, {"source", sourceJson(source)}});
    calls.push_back({{"caller", c.caller}, {"callerName", c.callerName}, {"callee", c.callee},
                     {"site", pointJson(c.site)}, {"pendingMove", c.pendingMove},
                     {"pendingNarrow", c.pendingNarrow},
                     {"pendingReachesEntry", c.pendingReachesEntry}, {"next", c.next},
                     {"nextReachesReturn", c.nextReachesReturn},
                     {"pendingWhat", c.pendingWhat}, {"nextWhat", c.nextWhat},
                     {"pendingCalls", c.pendingCalls}, {"nextCalls", c.nextCalls},
                     {"pendingOnParameters", c.pendingOnParameters},
                     {"coveredCalls", c.coveredCalls},
                     {"streams", streams}});
    json &call = calls.back();
    if (!c.pendingCallsOnParameters.empty())
      call["pendingCallsOnParameters"] = callsOnParameterJson(c.pendingCallsOnParameters);
    if (!c.nextOnParameters.empty()) {
      json &variants = call["nextOnParameters"] = json::array();
      for (const OrderedCall::NextOnParameter &v : c.nextOnParameters)
        variants.push_back({{"parameter", v.parameter}, {"level", v.level},
                            {"reachesReturn", v.reachesReturn}, {"what", v.what},
                            {"calls", v.calls},
                            {"callsOnParameter", callsOnParameterJson(v.callsOnParameter)}});
    }
  }
  json &functions = j["functions"] = json::array();
  for (const OrderedFunction &f : facts.functions) {
    json function = {{"usr", f.usr}, {"name", f.name}, {"isMain", f.isMain},
                     {"openBecause", f.openBecause}, {"definedAt", pointJson(f.definedAt)}};
    if (!f.definedDifferently.empty())
      function["definedDifferently"] = f.definedDifferently;
    if (!f.summarized)
      function["summarized"] = false; // the identity alone
    else
      function.update({{"leavesMove", f.leavesMove}, {"leavesNarrow", f.leavesNarrow},
                       {"leavesCalls", f.leavesCalls}, {"leavesCoveredCalls", f.leavesCoveredCalls},
                       {"leavesBlockingOnly", f.leavesBlockingOnly}, {"first", f.first},
                       {"firstDecides", f.firstDecides}, {"firstCalls", f.firstCalls},
                       {"onlyParameter", f.onlyParameter},
                       {"selectsDevice", f.selectsDevice}, {"leavesWhat", f.leavesWhat}});
    if (f.summarized && f.onlyParameterIfCallees != -1) {
      json calls = json::array();
      for (const auto &[callee, parameter] : f.onlyParameterCalls)
        calls.push_back({{"callee", callee}, {"parameter", parameter}});
      function["onlyParameterIfCallees"] = f.onlyParameterIfCallees;
      function["onlyParameterCalls"] = std::move(calls);
    }
    functions.push_back(std::move(function));
  }
  json &writes = j["writes"] = json::array();
  for (const StreamWrite &w : facts.writes)
    writes.push_back({{"variable", w.variable}, {"value", sourceJson(w.value)}});
  j["addressTaken"] = facts.addressTaken;
  j["streamCreations"] = facts.streamCreations;
  j["hostThreads"] = facts.hostThreads;
  for (const auto &[name, events] : {std::pair{"streamCreators", &facts.streamCreators},
                                     std::pair{"threadStarters", &facts.threadStarters},
                                     std::pair{"addressTakers", &facts.addressTakers}}) {
    json &list = j[name] = json::array();
    for (const ProgramEvent &e : *events)
      list.push_back({{"what", e.what}, {"function", e.function}});
  }
  j["startupCalls"] = facts.startupCalls;
  json &fixes = j["fixes"] = json::array();
  for (const ConditionalFix &f : facts.fixes) {
    json callees = json::array();
    for (const auto &[usr, parameter] : f.calleesOnTarget)
      callees.push_back({{"callee", usr}, {"parameter", parameter}});
    fixes.push_back({{"check", f.check}, {"finding", pointJson(f.finding)},
                     {"firstEdit", pointJson(f.firstEdit)}, {"function", f.function},
                     {"functionName", f.functionName}, {"narrow", f.narrow},
                     {"description", f.description}, {"target", sourceJson(f.target)},
                     {"cases", casesJson(f.cases)}, {"calleesOnTarget", callees},
                     {"casesIfCallees", casesJson(f.casesIfCallees)},
                     {"casesIfCalleesLeave", casesJson(f.casesIfCalleesLeave)},
                     {"perThreadTarget", f.perThreadTarget}});
    if (f.onlyParameterAfter != -1) {
      json calls = json::array();
      for (const auto &[usr, parameter] : f.onlyParameterAfterCalls)
        calls.push_back({{"callee", usr}, {"parameter", parameter}});
      fixes.back()["onlyParameterAfter"] = f.onlyParameterAfter;
      fixes.back()["onlyParameterAfterCalls"] = std::move(calls);
    }
  }
  // Paths and names need not be UTF-8 (a Latin-1 file name): stored byte
  // for byte (analyzer/StoredJson.h).
  return dumpStored(std::move(j));
}

bool fromJsonText(const std::string &text, OrderingFacts &facts, std::string &error) {
  try {
    json j = parseStored(text);
    OrderingFacts parsed;
    for (const json &c : j.at("calls")) {
      OrderedCall call;
      call.caller = c.at("caller").get<std::string>();
      call.callerName = c.at("callerName").get<std::string>();
      call.callee = c.at("callee").get<std::string>();
      call.site = pointFrom(c.at("site"));
      call.pendingMove = level(c.at("pendingMove"));
      call.pendingNarrow = level(c.at("pendingNarrow"));
      call.pendingReachesEntry = c.at("pendingReachesEntry").get<bool>();
      call.next = level(c.at("next"));
      call.nextReachesReturn = c.at("nextReachesReturn").get<bool>();
      call.pendingWhat = c.at("pendingWhat").get<std::string>();
      call.nextWhat = c.at("nextWhat").get<std::string>();
      call.pendingCalls = c.at("pendingCalls").get<std::vector<std::string>>();
      call.nextCalls = c.at("nextCalls").get<std::vector<std::string>>();
      call.pendingOnParameters = c.at("pendingOnParameters").get<std::vector<int>>();
      call.coveredCalls = c.at("coveredCalls").get<std::vector<std::string>>();
      for (const json &s : c.at("streams"))
        call.streams[s.at("parameter").get<int>()] = sourceFrom(s.at("source"));
      // Absent in older summaries: no call judged as work on the target.
      if (c.contains("pendingCallsOnParameters"))
        call.pendingCallsOnParameters = callsOnParameterFrom(c.at("pendingCallsOnParameters"));
      if (c.contains("nextOnParameters"))
        for (const json &v : c.at("nextOnParameters")) {
          OrderedCall::NextOnParameter variant;
          variant.parameter = v.at("parameter").get<int>();
          variant.level = level(v.at("level"));
          variant.reachesReturn = v.at("reachesReturn").get<bool>();
          variant.what = v.at("what").get<std::string>();
          variant.calls = v.at("calls").get<std::vector<std::string>>();
          variant.callsOnParameter = callsOnParameterFrom(v.at("callsOnParameter"));
          call.nextOnParameters.push_back(std::move(variant));
        }
      parsed.calls.push_back(std::move(call));
    }
    for (const json &f : j.at("functions")) {
      OrderedFunction function;
      function.usr = f.at("usr").get<std::string>();
      function.name = f.at("name").get<std::string>();
      function.isMain = f.at("isMain").get<bool>();
      function.openBecause = f.at("openBecause").get<std::string>();
      if (f.contains("definedAt"))
        function.definedAt = pointFrom(f.at("definedAt"));
      function.definedDifferently = f.value("definedDifferently", std::string());
      function.summarized = f.value("summarized", true); // absent: summarized
      if (!function.summarized) {
        parsed.functions.push_back(std::move(function));
        continue;
      }
      function.leavesMove = level(f.at("leavesMove"));
      function.leavesNarrow = level(f.at("leavesNarrow"));
      function.leavesCalls = f.at("leavesCalls").get<std::vector<std::string>>();
      function.leavesCoveredCalls = f.at("leavesCoveredCalls").get<std::vector<std::string>>();
      function.leavesBlockingOnly = f.at("leavesBlockingOnly").get<bool>();
      function.first = level(f.at("first"));
      function.firstDecides = f.at("firstDecides").get<bool>();
      function.firstCalls = f.at("firstCalls").get<std::vector<std::string>>();
      function.onlyParameter = f.value("onlyParameter", -1); // absent in older summaries
      function.onlyParameterIfCallees = f.value("onlyParameterIfCallees", -1);
      if (f.contains("onlyParameterCalls"))
        for (const json &call : f.at("onlyParameterCalls"))
          function.onlyParameterCalls.push_back(
              {call.at("callee").get<std::string>(), call.at("parameter").get<int>()});
      function.selectsDevice = f.value("selectsDevice", true);
      function.leavesWhat = f.value("leavesWhat", std::string());
      parsed.functions.push_back(std::move(function));
    }
    for (const json &w : j.at("writes"))
      parsed.writes.push_back({w.at("variable").get<std::string>(), sourceFrom(w.at("value"))});
    parsed.addressTaken = j.at("addressTaken").get<std::vector<std::string>>();
    // Absent in older summaries: no stream created, so no per-thread target.
    parsed.streamCreations = j.value("streamCreations", std::vector<std::string>{});
    parsed.hostThreads = j.value("hostThreads", std::vector<std::string>{});
    // Absent in older summaries: each thread and creation in no known
    // function, so every program may run it (a thread counts for all; a
    // creation for none but its TU's own main).
    auto events = [&](const char *name, const std::vector<std::string> &fallback) {
      std::vector<ProgramEvent> list;
      if (!j.contains(name)) {
        for (const std::string &what : fallback)
          list.push_back({what, ""});
        return list;
      }
      for (const json &e : j.at(name))
        list.push_back({e.at("what").get<std::string>(), e.at("function").get<std::string>()});
      return list;
    };
    parsed.streamCreators = events("streamCreators", parsed.streamCreations);
    parsed.threadStarters = events("threadStarters", parsed.hostThreads);
    // Absent in older summaries: each use in no known function, so the
    // function stays open to every program.
    parsed.addressTakers = events("addressTakers", parsed.addressTaken);
    parsed.startupCalls = j.value("startupCalls", std::vector<std::string>{});
    for (const json &f : j.at("fixes")) {
      ConditionalFix fix;
      fix.check = f.at("check").get<std::string>();
      fix.finding = pointFrom(f.at("finding"));
      fix.firstEdit = pointFrom(f.at("firstEdit"));
      fix.function = f.at("function").get<std::string>();
      fix.functionName = f.at("functionName").get<std::string>();
      fix.narrow = f.at("narrow").get<bool>();
      fix.description = f.at("description").get<std::string>();
      fix.target = sourceFrom(f.at("target"));
      fix.cases = casesFrom(f.at("cases"));
      if (f.contains("calleesOnTarget")) { // absent in older summaries
        for (const json &c : f.at("calleesOnTarget"))
          fix.calleesOnTarget.emplace_back(c.at("callee").get<std::string>(),
                                           c.at("parameter").get<int>());
        fix.casesIfCallees = casesFrom(f.at("casesIfCallees"));
      }
      if (f.contains("casesIfCalleesLeave")) // absent in older summaries
        fix.casesIfCalleesLeave = casesFrom(f.at("casesIfCalleesLeave"));
      fix.perThreadTarget = f.value("perThreadTarget", false);
      fix.onlyParameterAfter = f.value("onlyParameterAfter", -1); // absent in older summaries
      if (f.contains("onlyParameterAfterCalls"))
        for (const json &c : f.at("onlyParameterAfterCalls"))
          fix.onlyParameterAfterCalls.emplace_back(c.at("callee").get<std::string>(),
                                                   c.at("parameter").get<int>());
      parsed.fixes.push_back(std::move(fix));
    }
    facts = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = std::string("malformed ordering facts: ") + e.what();
    return false;
  }
}

} // namespace streamlint::ordering
