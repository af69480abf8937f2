// Summaries survive a JSON round trip; bad input names the file.
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/ReachSummary.h"
#include "ReachTestGraphs.h"

#include <gtest/gtest.h>

namespace streamlint::reach {
namespace {

using testing::Graph;

TranslationUnitSummary sample() {
  Graph graph;
  graph.function("main", CallsCuda).function("cb", Allocates | CallsCuda).loop(10, Frees)
      .call("main", "cb", 11, {10, 9}).callback("cb", 12)
      .site("alloc-in-loop", "cb", 20, ReachRoot::ChurningLoop, {10})
      .site("device-sync", "main", 21, ReachRoot::Loop, {}, true)
      .site("api-in-host-callback", "cb", 22, ReachRoot::Callback);
  graph.tu.mainFile = "/src/a.cu";
  FixIt fix;
  fix.description = "hoist";
  fix.applicable = false;
  fix.edits.push_back({"/src/a.cu", 5, 2, "x\n\"y\"", testing::at(1), testing::at(2)});
  graph.tu.sites[0].finding.fixes.push_back(fix);
  graph.tu.sites[1].otherwiseSeverity = Severity::Note;
  return graph.tu;
}

TEST(ReachSummaryJson, RoundTrip) {
  TranslationUnitSummary original = sample();
  std::string text = toJson(original);
  TranslationUnitSummary parsed;
  std::string error;
  ASSERT_TRUE(fromJson(text, "a.json", parsed, error)) << error;
  EXPECT_EQ(toJson(parsed), text);
  ASSERT_EQ(parsed.sites.size(), 3u);
  EXPECT_EQ(parsed.sites[0].root, ReachRoot::ChurningLoop);
  EXPECT_EQ(parsed.sites[2].root, ReachRoot::Callback);
  ASSERT_EQ(parsed.sites[0].finding.fixes.size(), 1u);
  EXPECT_FALSE(parsed.sites[0].finding.fixes[0].applicable);
  EXPECT_EQ(parsed.sites[0].finding.fixes[0].edits[0].replacement, "x\n\"y\"");
  EXPECT_TRUE(parsed.sites[1].otherwiseReported);
  EXPECT_EQ(parsed.edges[0].loops.size(), 2u);
  EXPECT_EQ(parsed.functions[1].kinds, unsigned(Allocates | CallsCuda));
}

TEST(ReachSummaryJson, BadInputNamesTheFile) {
  struct Case {
    const char *name;
    std::string text;
    std::string expected;
  };
  std::string valid = toJson(sample());
  std::string badRoot = valid;
  badRoot.replace(badRoot.find("\"churning-loop\""), 15, "\"sometimes\"");
  for (const Case &c : std::vector<Case>{
           {"not json", "{", "x.json: malformed reach summary"},
           {"other format", R"({"format": "sarif"})", "x.json: not a streamlint reach summary"},
           {"missing field", R"({"format": "streamlint-reach-summary-3"})",
            "x.json: malformed reach summary"},
           {"unknown root", badRoot, "unknown reach root 'sometimes'"},
       }) {
    SCOPED_TRACE(c.name);
    TranslationUnitSummary parsed;
    std::string error;
    EXPECT_FALSE(fromJson(c.text, "x.json", parsed, error));
    EXPECT_NE(error.find(c.expected), std::string::npos) << error;
  }
}

} // namespace
} // namespace streamlint::reach
