#include "analyzer/reach/PassedMemory.h"

#include "analyzer/reach/ReachSummary.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace streamlint::reach {
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

} // namespace streamlint::reach
