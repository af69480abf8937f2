#include "analyzer/reach/VirtualCalls.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

namespace streamlint::reach {

namespace {

/// The defined overriders of `method`, breadth first (direct ones first),
/// each once, at most MaxOverridersPerCall.
std::vector<const FunctionFacts *> definedOverriders(const ProgramSummary &program,
                                                     const std::string &method) {
  std::vector<const FunctionFacts *> found;
  std::set<std::string> seen{method};
  std::deque<std::string> queue{method};
  // Every overrider visited counts against the bound, defined or not, so a
  // deep hierarchy of declarations stays cheap too.
  unsigned visited = 0;
  while (!queue.empty() && visited < 4 * MaxOverridersPerCall &&
         found.size() < MaxOverridersPerCall) {
    auto direct = program.overriders.find(queue.front());
    queue.pop_front();
    if (direct == program.overriders.end())
      continue;
    for (const std::string &overrider : direct->second) {
      if (!seen.insert(overrider).second)
        continue;
      ++visited;
      queue.push_back(overrider);
      auto facts = program.functions.find(overrider);
      if (facts != program.functions.end() && found.size() < MaxOverridersPerCall)
        found.push_back(&facts->second);
    }
  }
  return found;
}

} // namespace

void addOverriderEdges(ProgramSummary &program) {
  if (program.overriders.empty())
    return;
  std::vector<CallEdge> added;
  for (const CallEdge &edge : program.edges) {
    if (!edge.virtualCall)
      continue;
    for (const FunctionFacts *overrider : definedOverriders(program, edge.callee)) {
      CallEdge reached = edge;
      reached.callee = overrider->usr;
      reached.calleeName = overrider->name + " (virtual call of '" + edge.calleeName + "')";
      reached.virtualCall = false;
      added.push_back(std::move(reached));
    }
  }
  if (added.empty())
    return;
  for (CallEdge &edge : added)
    program.edges.push_back(std::move(edge));
  auto edgeKey = [](const CallEdge &e) {
    return std::tie(e.caller, e.site.file, e.site.line, e.site.column, e.callee);
  };
  std::stable_sort(program.edges.begin(), program.edges.end(),
                   [&](const CallEdge &a, const CallEdge &b) { return edgeKey(a) < edgeKey(b); });
  program.edges.erase(std::unique(program.edges.begin(), program.edges.end(),
                                  [&](const CallEdge &a, const CallEdge &b) {
                                    return edgeKey(a) == edgeKey(b);
                                  }),
                      program.edges.end());
}

} // namespace streamlint::reach
