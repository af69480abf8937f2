// pageable-memcpy-async's whole-program part: merging every TU's facts,
// following callers and wrappers across TUs, and the copies' findings.
#include "checks/PageableMemcpyAsyncPart.h"

#include "analyzer/reach/ReachSummary.h"
#include "analyzer/reach/SummaryJson.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace streamlint {

using nlohmann::json;
using reach::pointFrom;
using reach::pointJson;
using reach::pointKey;
using reach::pointLess;

namespace {

// Callers passing a parameter on, followed this deep; deeper is unknown.
constexpr unsigned MaxForwarding = 6;

bool callLess(const PassedMemory &a, const PassedMemory &b) {
  if (a.parameter != b.parameter)
    return a.parameter < b.parameter;
  return pointLess(a.call, b.call);
}

class ParameterResolver {
public:
  explicit ParameterResolver(const PassedMemoryMap &map) : map_(map) {}

  /// Adds the calls deciding (usr, parameter) to `result`; false when some
  /// caller is hidden or the chain is too deep or cyclic.
  bool collect(const std::string &usr, int parameter, unsigned depth,
               ParameterMemory &result) {
    if (depth > MaxForwarding || !active_.insert({usr, parameter}).second)
      return false;
    bool complete = collectCalls(usr, parameter, depth, result);
    active_.erase({usr, parameter});
    return complete;
  }

private:
  bool collectCalls(const std::string &usr, int parameter, unsigned depth,
                    ParameterMemory &result) {
    auto found = map_.find(usr);
    if (found == map_.end())
      return false; // no caller in the program: called from outside it
    bool any = false;
    for (const PassedMemory &call : found->second) {
      if (call.parameter == -1)
        return false; // its address is taken: callers unknown
      if (call.parameter != parameter || call.kind == "registers")
        continue;
      any = true;
      if (!call.forwardsTo.empty()) {
        if (!collect(call.forwardsTo, call.forwardsParameter, depth + 1, result))
          return false;
        continue;
      }
      if (call.kind == "unknown" || (!result.kind.empty() && result.kind != call.kind))
        return false;
      result.kind = call.kind;
      result.calls.push_back(&call);
    }
    return any;
  }

  const PassedMemoryMap &map_;
  std::set<std::pair<std::string, int>> active_;
};

} // namespace

void addPassedMemory(PassedMemoryMap &map, std::vector<PassedMemory> passed) {
  for (PassedMemory &memory : passed)
    map[memory.callee].push_back(std::move(memory));
}

void normalizePassedMemory(PassedMemoryMap &map) {
  for (auto &[usr, calls] : map) {
    std::stable_sort(calls.begin(), calls.end(), callLess);
    calls.erase(std::unique(calls.begin(), calls.end(),
                            [](const PassedMemory &a, const PassedMemory &b) {
                              return !callLess(a, b) && !callLess(b, a);
                            }),
                calls.end());
  }
}

ParameterMemory parameterMemory(const PassedMemoryMap &map, const std::string &usr,
                                int parameter) {
  ParameterMemory result;
  ParameterResolver resolver(map);
  result.known = resolver.collect(usr, parameter, 0, result) && !result.kind.empty();
  if (!result.known) {
    result.kind.clear();
    result.calls.clear();
  }
  return result;
}

std::set<std::string> registeredMemory(const PassedMemoryMap &map) {
  std::set<std::string> registered;
  for (const auto &[usr, calls] : map)
    for (const PassedMemory &fact : calls) {
      if (fact.kind != "registers")
        continue;
      // Whatever reaches the parameter, pageable or not.
      for (const PassedMemory &call : calls)
        if (call.parameter == fact.parameter && call.kind != "registers" &&
            call.forwardsTo.empty() && !call.location.file.empty())
          registered.insert(pointKey(call.location));
      ParameterResolver resolver(map);
      ParameterMemory through;
      for (const PassedMemory &call : calls)
        if (call.parameter == fact.parameter && !call.forwardsTo.empty() &&
            resolver.collect(call.forwardsTo, call.forwardsParameter, 1, through))
          for (const PassedMemory *leaf : through.calls)
            registered.insert(pointKey(leaf->location));
    }
  return registered;
}

void PageableProgram::add(const PageableMemoryFacts &facts) {
  // An inline wrapper in a header is summarized by every TU that includes
  // it, identically; the first one stays.
  for (const ReturnedMemory &returned : facts.returns)
    returns.emplace(returned.usr, returned);
  addPassedMemory(passed, facts.passed);
  copies.insert(copies.end(), facts.copies.begin(), facts.copies.end());
}

void PageableProgram::normalize() {
  normalizePassedMemory(passed);
  // A copy in a header included by several TUs is one copy.
  auto copyLess = [](const PageableCopy &a, const PageableCopy &b) {
    if (pointLess(a.finding.location, b.finding.location) ||
        pointLess(b.finding.location, a.finding.location))
      return pointLess(a.finding.location, b.finding.location);
    return std::tie(a.finding.message, a.messageTail) <
           std::tie(b.finding.message, b.messageTail);
  };
  std::stable_sort(copies.begin(), copies.end(), copyLess);
  copies.erase(std::unique(copies.begin(), copies.end(),
                           [&](const PageableCopy &a, const PageableCopy &b) {
                             return !copyLess(a, b) && !copyLess(b, a);
                           }),
               copies.end());
}

const ReturnedMemory *returnedMemory(const PageableProgram &program, const std::string &usr) {
  std::string next = usr;
  for (unsigned step = 0; step < 16; ++step) { // bounded: forwarding may cycle
    auto it = program.returns.find(next);
    if (it == program.returns.end())
      return nullptr;
    if (it->second.forwardsTo.empty())
      return &it->second;
    next = it->second.forwardsTo;
  }
  return nullptr;
}

namespace {

/// A copy neither the wrappers nor the callers decide: its note under
/// Strict, or nothing.
std::optional<Finding> undecided(const PageableCopy &copy) {
  if (!copy.noteUndecided)
    return std::nullopt;
  Finding finding = copy.finding;
  finding.severity = Severity::Note;
  finding.message = copy.undecidedNote;
  finding.fixes.clear();
  return finding;
}

/// The check's words around the memory's origin.
Finding worded(const PageableCopy &copy, const std::string &origin) {
  Finding finding = copy.finding;
  finding.message += origin + copy.messageTail;
  return finding;
}

/// A copy whose host pointer another TU's function returns: reported when
/// that function (through any forwarding wrappers) returns pageable memory.
std::optional<Finding> resolvedReturn(const PageableCopy &copy,
                                      const PageableProgram &program) {
  const ReturnedMemory *memory = returnedMemory(program, copy.function);
  if (memory && memory->kind == "pageable") {
    Finding finding =
        worded(copy, memory->origin + ", returned by '" + memory->name + "'");
    finding.related.push_back(
        {memory->location, "host memory allocated here by " + memory->origin});
    return finding;
  }
  if (memory)
    return std::nullopt; // pinned: nothing to say
  return undecided(copy);
}

/// Who passes the memory, for a message: "'main'", "'main' and 'step'",
/// "'main' and 3 other callers".
std::string callerList(const std::vector<const PassedMemory *> &calls) {
  std::vector<std::string> names;
  for (const PassedMemory *call : calls)
    if (std::find(names.begin(), names.end(), call->callerName) == names.end())
      names.push_back(call->callerName);
  std::string list = "'" + names.front() + "'";
  if (names.size() == 2)
    list += " and '" + names[1] + "'";
  else if (names.size() > 2)
    list += " and " + std::to_string(names.size() - 1) + " other callers";
  return list;
}

/// A copy whose host pointer is a parameter of a function other TUs may
/// call: reported when every call in the program passes pageable memory.
std::optional<Finding> resolvedArgument(const PageableCopy &copy,
                                        const PageableProgram &program,
                                        const std::set<std::string> &registered) {
  ParameterMemory memory = parameterMemory(program.passed, copy.function, copy.parameter);
  bool pinnedSomewhere = false;
  for (const PassedMemory *call : memory.calls)
    pinnedSomewhere = pinnedSomewhere || registered.count(pointKey(call->location));
  if (pinnedSomewhere)
    return std::nullopt; // registered with cudaHostRegister in another function
  if (memory.known && memory.kind == "pageable") {
    std::vector<std::string> origins;
    for (const PassedMemory *call : memory.calls)
      if (std::find(origins.begin(), origins.end(), call->origin) == origins.end())
        origins.push_back(call->origin);
    std::string origin = origins.front();
    for (size_t i = 1; i < origins.size(); ++i)
      origin += i + 1 == origins.size() ? " or " + origins[i] : ", " + origins[i];
    Finding finding = worded(copy, origin + ", passed by " + callerList(memory.calls));
    for (const PassedMemory *call : memory.calls) {
      if (!call->location.file.empty())
        finding.related.push_back({call->location, call->allocated
                                                       ? "host memory allocated here by " +
                                                             call->origin
                                                       : "host memory declared here"});
      finding.related.push_back({call->call, "passed here by '" + call->callerName + "'"});
    }
    return finding;
  }
  if (memory.known)
    return std::nullopt; // pinned or device memory: nothing to say
  return undecided(copy);
}

} // namespace

std::vector<Finding> resolvePageableCopies(const PageableProgram &program) {
  std::set<std::string> registered = registeredMemory(program.passed);
  std::vector<Finding> findings;
  for (const PageableCopy &copy : program.copies) {
    std::optional<Finding> finding = copy.parameter < 0
                                         ? resolvedReturn(copy, program)
                                         : resolvedArgument(copy, program, registered);
    if (finding)
      findings.push_back(std::move(*finding));
  }
  std::stable_sort(findings.begin(), findings.end(), findingLess);
  return findings;
}

// ---- JSON ------------------------------------------------------------------

json PageableMemoryFacts::toJson() const {
  json j;
  json &returned = j["returns"] = json::array();
  for (const ReturnedMemory &r : returns)
    returned.push_back({{"usr", r.usr}, {"name", r.name}, {"kind", r.kind},
                        {"origin", r.origin}, {"location", pointJson(r.location)},
                        {"forwardsTo", r.forwardsTo}});
  json &calls = j["passed"] = json::array();
  for (const PassedMemory &p : passed)
    calls.push_back({{"callee", p.callee}, {"parameter", p.parameter}, {"kind", p.kind},
                     {"origin", p.origin}, {"location", pointJson(p.location)},
                     {"allocated", p.allocated}, {"call", pointJson(p.call)},
                     {"callerName", p.callerName}, {"forwardsTo", p.forwardsTo},
                     {"forwardsParameter", p.forwardsParameter}});
  json &copied = j["copies"] = json::array();
  for (const PageableCopy &c : copies)
    copied.push_back({{"finding", reach::findingJson(c.finding)},
                      {"messageTail", c.messageTail}, {"function", c.function},
                      {"parameter", c.parameter}, {"noteUndecided", c.noteUndecided},
                      {"undecidedNote", c.undecidedNote}});
  return j;
}

std::shared_ptr<PageableMemoryFacts> pageableMemoryFactsFrom(const json &j) {
  auto facts = std::make_shared<PageableMemoryFacts>();
  for (const json &r : j.at("returns"))
    facts->returns.push_back({r.at("usr").get<std::string>(), r.at("name").get<std::string>(),
                              r.at("kind").get<std::string>(),
                              r.at("origin").get<std::string>(), pointFrom(r.at("location")),
                              r.at("forwardsTo").get<std::string>()});
  for (const json &p : j.at("passed")) {
    PassedMemory memory;
    memory.callee = p.at("callee").get<std::string>();
    memory.parameter = p.at("parameter").get<int>();
    memory.kind = p.at("kind").get<std::string>();
    memory.origin = p.at("origin").get<std::string>();
    memory.location = pointFrom(p.at("location"));
    memory.allocated = p.at("allocated").get<bool>();
    memory.call = pointFrom(p.at("call"));
    memory.callerName = p.at("callerName").get<std::string>();
    memory.forwardsTo = p.at("forwardsTo").get<std::string>();
    memory.forwardsParameter = p.at("forwardsParameter").get<int>();
    facts->passed.push_back(std::move(memory));
  }
  for (const json &c : j.at("copies")) {
    PageableCopy copy;
    copy.finding = reach::findingFrom(c.at("finding"));
    copy.messageTail = c.at("messageTail").get<std::string>();
    copy.function = c.at("function").get<std::string>();
    copy.parameter = c.at("parameter").get<int>();
    copy.noteUndecided = c.at("noteUndecided").get<bool>();
    copy.undecidedNote = c.at("undecidedNote").get<std::string>();
    facts->copies.push_back(std::move(copy));
  }
  return facts;
}

PartFactsPtr PageableMemoryFacts::withoutFixes() const {
  auto copy = std::make_shared<PageableMemoryFacts>(*this);
  for (PageableCopy &pending : copy->copies)
    pending.finding.fixes.clear();
  return copy;
}

WholeProgramPart pageableMemcpyAsyncPart() {
  WholeProgramPart part;
  part.id = "pageable-memcpy-async";
  part.read = [](const nlohmann::json &j) -> PartFactsPtr { return pageableMemoryFactsFrom(j); };
  part.resolve = [](const std::vector<PartFactsPtr> &units, const ProgramView &) {
    PageableProgram program;
    for (const PartFactsPtr &unit : units)
      program.add(static_cast<const PageableMemoryFacts &>(*unit));
    program.normalize();
    return resolvePageableCopies(program);
  };
  return part;
}

} // namespace streamlint
