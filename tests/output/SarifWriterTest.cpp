#include "RichResult.h"

#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace streamlint {
namespace {

using namespace streamlint::testing;
using Json = nlohmann::json;

Json renderSarif(const AnalysisResult &result, const OutputOptions &options,
                 SourceTextCache &sources) {
  std::string text;
  llvm::raw_string_ostream out(text);
  writeFindings(OutputFormat::Sarif, result, options, sources, out);
  return Json::parse(text);
}

const Json &resultFor(const Json &run, const std::string &ruleId) {
  for (const Json &r : run["results"])
    if (r["ruleId"] == ruleId)
      return r;
  static const Json none;
  ADD_FAILURE() << "no result for " << ruleId;
  return none;
}

TEST(SarifWriterTest, LogAndDriver) {
  SourceTextCache sources;
  Json log = renderSarif(richResult(sources), richOptions(), sources);
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_TRUE(log["$schema"].is_string());
  ASSERT_EQ(log["runs"].size(), 1u);
  const Json &run = log["runs"][0];
  const Json &driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "streamlint");
  EXPECT_EQ(driver["semanticVersion"], "0.1.0");
  EXPECT_TRUE(driver["informationUri"].is_string());
  ASSERT_EQ(driver["rules"].size(), 3u); // two registered + streamlint-nolint
  const Json &rule = driver["rules"][0];
  EXPECT_EQ(rule["id"], "sync-memcpy");
  EXPECT_EQ(rule["shortDescription"]["text"], "Synchronous copy in stream code.");
  EXPECT_TRUE(rule["fullDescription"]["text"].is_string());
  EXPECT_TRUE(rule["help"]["text"].is_string());
  EXPECT_TRUE(rule["helpUri"].is_string());
  EXPECT_EQ(rule["defaultConfiguration"]["level"], "warning");
  EXPECT_EQ(driver["rules"][2]["id"], "streamlint-nolint");
  EXPECT_EQ(run["columnKind"], "unicodeCodePoints");
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///work/proj/");
}

TEST(SarifWriterTest, ResultsUseCodePointColumnsAndRelativeUris) {
  SourceTextCache sources;
  Json log = renderSarif(richResult(sources), richOptions(), sources);
  const Json &run = log["runs"][0];
  ASSERT_EQ(run["results"].size(), 3u);
  const Json &copy = resultFor(run, "sync-memcpy");
  EXPECT_EQ(copy["ruleIndex"], 0);
  EXPECT_EQ(copy["level"], "warning");
  EXPECT_NE(copy["message"]["text"].get<std::string>().find("cudaMemcpy"),
            std::string::npos);
  ASSERT_EQ(copy["locations"].size(), 1u);
  const Json &physical = copy["locations"][0]["physicalLocation"];
  EXPECT_EQ(physical["artifactLocation"],
            (Json{{"uri", "src/kernels.cu"}, {"uriBaseId", "%SRCROOT%"}}));
  // Byte column 16 follows "  /* é → */ ": 15 bytes but 12 code points.
  EXPECT_EQ(physical["region"], (Json{{"startLine", 3}, {"startColumn", 13},
                                      {"endLine", 3}, {"endColumn", 57}}));
  EXPECT_EQ(copy["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "copy");

  const Json &related = copy["relatedLocations"][0];
  EXPECT_EQ(related["id"], 1);
  EXPECT_EQ(related["message"]["text"], "called from here");
  EXPECT_EQ(related["physicalLocation"]["artifactLocation"]["uri"],
            "file:///opt/other%20lib/util.cuh");
  EXPECT_FALSE(related["physicalLocation"]["artifactLocation"].contains("uriBaseId"));

  ASSERT_EQ(copy["fixes"].size(), 2u);
  const Json &change = copy["fixes"][0]["artifactChanges"][0];
  EXPECT_EQ(change["artifactLocation"]["uri"], "src/kernels.cu");
  EXPECT_EQ(change["replacements"][0]["deletedRegion"],
            (Json{{"startLine", 3}, {"startColumn", 13}, {"endLine", 3},
                  {"endColumn", 23}}));
  EXPECT_EQ(change["replacements"][0]["insertedContent"]["text"],
            "cudaMemcpyAsync");
  EXPECT_EQ(copy["fixes"][1]["artifactChanges"][0]["replacements"][0]
                ["deletedRegion"],
            (Json{{"startLine", 2}, {"startColumn", 1}, {"endLine", 2},
                  {"endColumn", 1}}));

  EXPECT_EQ(copy["partialFingerprints"]["streamlint/v1"].get<std::string>().size(),
            32u);
  EXPECT_EQ(copy["properties"]["streamlint/dynamicStatus"], "confirmed");
  EXPECT_EQ(copy["properties"]["streamlint/calls"], 1200);
  EXPECT_EQ(copy["properties"]["streamlint/hostTimeUs"], 3100.0);
  EXPECT_EQ(copy["properties"]["streamlint/bytes"], 8 << 20);
  EXPECT_FALSE(copy.contains("baselineState"));

  const Json &note = resultFor(run, "streamlint-nolint");
  EXPECT_EQ(note["level"], "note");
  EXPECT_EQ(note["ruleIndex"], 2);
  EXPECT_EQ(note["message"]["text"], "50% of\nlines, with: commas");
  EXPECT_FALSE(resultFor(run, "default-stream").contains("properties"));
}

TEST(SarifWriterTest, ProblemsBecomeToolNotifications) {
  SourceTextCache sources;
  Json log = renderSarif(richResult(sources), richOptions(), sources);
  const Json &invocation = log["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], false);
  const Json &n = invocation["toolExecutionNotifications"][0];
  EXPECT_EQ(n["level"], "error");
  EXPECT_NE(n["message"]["text"].get<std::string>().find("unknown type name"),
            std::string::npos);
  EXPECT_EQ(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "src/broken.cu");
}

TEST(SarifWriterTest, EmptyRunStillHasResults) {
  SourceTextCache sources;
  Json log = renderSarif(AnalysisResult(), OutputOptions(), sources);
  const Json &run = log["runs"][0];
  ASSERT_TRUE(run["results"].is_array());
  EXPECT_TRUE(run["results"].empty());
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], true);
  EXPECT_FALSE(run.contains("originalUriBaseIds")); // no base: absolute URIs
  EXPECT_EQ(run["tool"]["driver"]["semanticVersion"], "0.0.0");
}

TEST(SarifWriterTest, BaselineStateWhenCompared) {
  SourceTextCache sources;
  OutputOptions options = richOptions();
  options.baselineCompared = true;
  Json log = renderSarif(richResult(sources), options, sources);
  for (const Json &r : log["runs"][0]["results"])
    EXPECT_EQ(r["baselineState"], "new");
}

TEST(SarifWriterTest, TruncatesAtGithubResultLimit) {
  AnalysisResult result;
  for (unsigned i = 0; i < 25003; ++i) {
    Finding f;
    f.checkId = "c";
    f.location = {"/p/a.cu", i + 1, 1};
    f.fingerprint = std::to_string(i); // skip hashing: not under test here
    result.findings.push_back(f);
  }
  SourceTextCache sources;
  Json log = renderSarif(result, OutputOptions(), sources);
  const Json &run = log["runs"][0];
  EXPECT_EQ(run["results"].size(), 25000u);
  const Json &n = run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(n["level"], "warning");
  EXPECT_EQ(n["message"]["text"].get<std::string>().rfind("3 findings left out", 0),
            0u);
}

} // namespace
} // namespace streamlint

namespace streamlint {
namespace {

TEST(SarifWriterTest, RepositoryHelpPathsBecomeAbsoluteUris) {
  OutputOptions options;
  RuleInfo relative;
  relative.id = "a";
  relative.helpUri = "docs/checks/a.md";
  RuleInfo absolute;
  absolute.id = "b";
  absolute.helpUri = "https://example.invalid/b";
  options.rules = {relative, absolute};
  SourceTextCache sources;
  Json log = renderSarif(AnalysisResult(), options, sources);
  const Json &rules = log["runs"][0]["tool"]["driver"]["rules"];
  EXPECT_EQ(rules[0]["helpUri"],
            std::string(kStreamlintHomepage) + "/blob/main/docs/checks/a.md");
  EXPECT_EQ(rules[1]["helpUri"], "https://example.invalid/b");
}

} // namespace
} // namespace streamlint
