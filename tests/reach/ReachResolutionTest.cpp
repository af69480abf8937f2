// Graphs in, reach and chains out.
#include "analyzer/reach/ReachResolution.h"
#include "ReachTestGraphs.h"

#include <gtest/gtest.h>

namespace streamlint::reach {
namespace {

using testing::Graph;

std::vector<std::string> chainNames(const ReachChain &chain) {
  std::vector<std::string> names;
  for (const CallEdge *edge : chain.calls)
    names.push_back(edge->calleeName);
  return names;
}

struct ReachCase {
  const char *name;
  Graph graph;
  ReachRoot root;
  std::string target;
  bool reached;
  std::vector<std::string> chain; // callee names, root side first
};

std::vector<ReachCase> reachCases() {
  return {
      {"direct call from a loop",
       Graph().function("main").function("f").loop(10).call("main", "f", 11, {10}),
       ReachRoot::Loop, "f", true, {"f"}},
      {"call outside any loop does not count",
       Graph().function("main").function("f").loop(10).call("main", "f", 20),
       ReachRoot::Loop, "f", false, {}},
      {"two steps",
       Graph().function("main").function("f").function("g").loop(10)
           .call("main", "f", 11, {10}).call("f", "g", 30),
       ReachRoot::Loop, "g", true, {"f", "g"}},
      {"shortest chain wins",
       Graph().function("main").function("a").function("b").function("g").loop(10)
           .call("main", "a", 11, {10}).call("a", "b", 40).call("b", "g", 50)
           .call("main", "g", 12, {10}),
       ReachRoot::Loop, "g", true, {"g"}},
      {"recursion terminates and still reaches",
       Graph().function("main").function("r").function("s").loop(10)
           .call("main", "r", 11, {10}).call("r", "r", 60).call("r", "s", 61)
           .call("s", "r", 70),
       ReachRoot::Loop, "s", true, {"r", "s"}},
      {"a cycle not reached from any root",
       Graph().function("x").function("y").call("x", "y", 5).call("y", "x", 6),
       ReachRoot::Loop, "y", false, {}},
      {"callback root is the callback itself",
       Graph().function("cb").callback("cb", 90), ReachRoot::Callback, "cb", true, {}},
      {"callback through calls",
       Graph().function("cb").function("h").callback("cb", 90).call("cb", "h", 3),
       ReachRoot::Callback, "h", true, {"h"}},
      {"a loop root is not a callback root",
       Graph().function("main").function("f").loop(10).call("main", "f", 11, {10}),
       ReachRoot::Callback, "f", false, {}},
      {"set-up loop (allocates only) is not churning",
       Graph().function("main").function("alloc", Allocates).loop(10)
           .call("main", "alloc", 11, {10}),
       ReachRoot::ChurningLoop, "alloc", false, {}},
      {"loop allocating and freeing through calls churns",
       Graph().function("main").function("alloc", Allocates)
           .function("wrap").function("free", Frees).loop(10)
           .call("main", "alloc", 11, {10}).call("main", "wrap", 12, {10})
           .call("wrap", "free", 20),
       ReachRoot::ChurningLoop, "free", true, {"wrap", "free"}},
  };
}

TEST(ReachIndex, ReachAndChains) {
  for (const ReachCase &c : reachCases()) {
    SCOPED_TRACE(c.name);
    ProgramSummary program = c.graph.program();
    ReachIndex index(program);
    std::optional<ReachChain> chain = index.reach(c.root, Graph::usr(c.target));
    ASSERT_EQ(chain.has_value(), c.reached);
    if (chain) {
      EXPECT_EQ(chainNames(*chain), c.chain);
      EXPECT_EQ(chain->loop != nullptr, c.root != ReachRoot::Callback);
      EXPECT_EQ(chain->callback != nullptr, c.root == ReachRoot::Callback);
    }
  }
}

TEST(ReachIndex, TransitiveKindsThroughRecursion) {
  ProgramSummary program = Graph()
                               .function("a").function("b", Synchronizes)
                               .function("c", Allocates)
                               .call("a", "b", 1).call("b", "a", 2).call("b", "c", 3)
                               .program();
  ReachIndex index(program);
  EXPECT_EQ(index.transitiveKinds(Graph::usr("a")), Synchronizes | Allocates);
  EXPECT_EQ(index.transitiveKinds(Graph::usr("c")), Allocates);
  EXPECT_EQ(index.transitiveKinds("c:@F@unknown"), NoApi);
}

TEST(ResolveSites, DirectLoopDeferredAndNote) {
  Graph graph;
  graph.function("main").function("f").function("cold").loop(10, Allocates | Frees)
      .call("main", "f", 11, {10})
      .site("device-sync", "f", 30, ReachRoot::Loop, {}, /*note=*/true)
      .site("device-sync", "cold", 40, ReachRoot::Loop, {}, /*note=*/true)
      .site("alloc-in-loop", "main", 12, ReachRoot::ChurningLoop, {10})
      .site("alloc-in-loop", "cold", 41, ReachRoot::ChurningLoop);
  std::vector<Finding> findings = resolveSites(graph.program());
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].location.line, 12u);
  EXPECT_EQ(findings[0].message, "call inside the loop at line 10");
  EXPECT_EQ(findings[1].location.line, 30u);
  EXPECT_EQ(findings[1].message, "call on a hot path: called from the loop at line 10 through f");
  ASSERT_EQ(findings[1].related.size(), 2u);
  EXPECT_EQ(findings[1].related[0].location.line, 10u);
  EXPECT_EQ(findings[1].related[1].location.line, 11u);
  EXPECT_EQ(findings[2].location.line, 40u);
  EXPECT_EQ(findings[2].severity, Severity::Note);
  EXPECT_EQ(findings[2].message, "call, not hot");
}

TEST(ResolveSites, DepthCapShortensLongChains) {
  Graph graph;
  graph.function("main").loop(10).call("main", "f0", 11, {10});
  for (int i = 0; i < 12; ++i) {
    graph.function("f" + std::to_string(i));
    if (i)
      graph.call("f" + std::to_string(i - 1), "f" + std::to_string(i), 100 + i);
  }
  graph.site("device-sync", "f11", 200, ReachRoot::Loop);
  std::vector<Finding> findings = resolveSites(graph.program());
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("(chain of 12 calls, first 8 shown)"),
            std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[0].related.size(), 1u + MaxReportedChainSteps);
}

TEST(ResolveSites, OrderOfTranslationUnitsDoesNotMatter) {
  Graph first, second;
  first.function("main").loop(10).call("main", "f", 11, {10})
      .site("device-sync", "main", 5, ReachRoot::Loop, {}, true);
  second.function("f").site("device-sync", "f", 30, ReachRoot::Loop);
  second.tu.functions[0].location = testing::at(1, "/src/b.cu");
  auto run = [](const Graph &a, const Graph &b) {
    ProgramSummary program;
    program.add(a.tu);
    program.add(b.tu);
    program.add(b.tu); // a header seen by two TUs: one finding
    std::vector<std::string> lines;
    for (const Finding &f : resolveSites(program))
      lines.push_back(f.location.file + ":" + std::to_string(f.location.line) + " " +
                      f.message);
    return lines;
  };
  std::vector<std::string> forward = run(first, second);
  EXPECT_EQ(forward, run(second, first));
  EXPECT_EQ(forward.size(), 2u);
}

TEST(DescribePoint, SameFileOrBaseName) {
  EXPECT_EQ(describePoint(testing::at(7), "/src/a.cu"), "line 7");
  EXPECT_EQ(describePoint(testing::at(7, "/src/dir/b.cu"), "/src/a.cu"), "b.cu:7");
}

} // namespace
} // namespace streamlint::reach
