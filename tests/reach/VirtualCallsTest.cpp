// Class hierarchy analysis over summaries: virtual call edges reach the
// overriders the program defines, bounded per call site.
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/VirtualCalls.h"
#include "ReachTestGraphs.h"

#include <gtest/gtest.h>

namespace streamlint::reach {
namespace {

using testing::at;
using testing::Graph;

/// main's loop at line 10 calls Base::f virtually at line 11.
Graph hierarchy() {
  Graph graph;
  graph.function("main").loop(10).call("main", "Base::f", 11, {10});
  graph.tu.edges.back().virtualCall = true;
  graph.tu.edges.back().calleeName = "Base::f";
  return graph;
}

std::vector<std::string> calleesOf(const ProgramSummary &program, const std::string &caller) {
  std::vector<std::string> callees;
  for (const CallEdge &edge : program.edges)
    if (edge.caller == Graph::usr(caller))
      callees.push_back(edge.calleeName);
  return callees;
}

TEST(VirtualCalls, ReachEveryDefinedOverriderTransitively) {
  Graph graph = hierarchy();
  graph.function("Derived::f", Frees).function("Leaf::f", Allocates);
  graph.tu.overrides.push_back({Graph::usr("Derived::f"), Graph::usr("Base::f")});
  graph.tu.overrides.push_back({Graph::usr("Leaf::f"), Graph::usr("Derived::f")});
  // Declared, never defined in any TU: no edge.
  graph.tu.overrides.push_back({Graph::usr("Abstract::f"), Graph::usr("Base::f")});
  ProgramSummary program = graph.program();
  addOverriderEdges(program);
  EXPECT_EQ(calleesOf(program, "main"),
            (std::vector<std::string>{"Base::f", "Derived::f (virtual call of 'Base::f')",
                                      "Leaf::f (virtual call of 'Base::f')"}));
  ReachIndex index(program);
  std::optional<ReachChain> chain = index.reach(ReachRoot::Loop, Graph::usr("Leaf::f"));
  ASSERT_TRUE(chain);
  ASSERT_EQ(chain->calls.size(), 1u);
  EXPECT_EQ(chain->calls[0]->site.line, 11u);
  EXPECT_TRUE(index.churns(at(10))) << "the loop allocates through Leaf::f and frees through Derived::f";
  EXPECT_FALSE(index.reach(ReachRoot::Loop, Graph::usr("Abstract::f")));
}

TEST(VirtualCalls, ADirectCallIsNotExpanded) {
  Graph graph;
  graph.function("main").function("Derived::f").loop(10).call("main", "Base::f", 11, {10});
  graph.tu.overrides.push_back({Graph::usr("Derived::f"), Graph::usr("Base::f")});
  ProgramSummary program = graph.program();
  addOverriderEdges(program);
  EXPECT_EQ(calleesOf(program, "main"), (std::vector<std::string>{"Base::f"}));
}

TEST(VirtualCalls, ALargeHierarchyIsBoundedPerCall) {
  Graph graph = hierarchy();
  for (int i = 0; i < 200; ++i) {
    std::string name = "D" + std::to_string(i) + "::f";
    graph.function(name);
    graph.tu.overrides.push_back({Graph::usr(name), Graph::usr("Base::f")});
  }
  ProgramSummary program = graph.program();
  addOverriderEdges(program);
  EXPECT_EQ(calleesOf(program, "main").size(), 1u + MaxOverridersPerCall);
}

TEST(VirtualCalls, OverridesAndVirtualEdgesSurviveJson) {
  TranslationUnitSummary tu = hierarchy().tu;
  tu.overrides.push_back({Graph::usr("Derived::f"), Graph::usr("Base::f")});
  TranslationUnitSummary back;
  std::string error;
  ASSERT_TRUE(fromJson(toJson(tu), "summary.json", back, error)) << error;
  ASSERT_EQ(back.overrides.size(), 1u);
  EXPECT_EQ(back.overrides[0].method, Graph::usr("Derived::f"));
  EXPECT_EQ(back.overrides[0].overridden, Graph::usr("Base::f"));
  ASSERT_EQ(back.edges.size(), 1u);
  EXPECT_TRUE(back.edges[0].virtualCall);
}

} // namespace
} // namespace streamlint::reach
