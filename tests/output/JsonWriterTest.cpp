#include "RichResult.h"

#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace streamlint {
namespace {

using namespace streamlint::testing;
using Json = nlohmann::json;

Json renderJson(OutputFormat format, const AnalysisResult &result,
                const OutputOptions &options, SourceTextCache &sources) {
  std::string text;
  llvm::raw_string_ostream out(text);
  writeFindings(format, result, options, sources, out);
  return Json::parse(text);
}

TEST(JsonWriterTest, SchemaFieldsForEveryFinding) {
  SourceTextCache sources;
  AnalysisResult result = richResult(sources);
  Json doc = renderJson(OutputFormat::Json, result, richOptions(), sources);
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["tool"]["name"], "streamlint");
  EXPECT_EQ(doc["tool"]["version"], "0.1.0");
  ASSERT_EQ(doc["findings"].size(), 3u);
  const char *required[] = {"check", "severity", "file", "line", "column",
                            "end_line", "end_column", "message", "function",
                            "related", "fixes", "fingerprint"};
  for (const Json &f : doc["findings"])
    for (const char *key : required)
      EXPECT_TRUE(f.contains(key)) << key << " missing in " << f.dump();

  // Findings keep their deterministic order (file, line, column).
  const Json &copy = doc["findings"][1];
  EXPECT_EQ(doc["findings"][0]["file"], kOutsideFile);
  EXPECT_EQ(copy["check"], "sync-memcpy");
  EXPECT_EQ(copy["severity"], "warning");
  EXPECT_EQ(copy["file"], kKernelFile);
  EXPECT_EQ(copy["line"], 3);
  EXPECT_EQ(copy["column"], 16);
  EXPECT_EQ(copy["end_line"], 3);
  EXPECT_EQ(copy["end_column"], 59);
  EXPECT_EQ(copy["function"], "copy");
  EXPECT_EQ(copy["related"][0],
            (Json{{"file", kOutsideFile}, {"line", 2}, {"column", 3},
                  {"message", "called from here"}}));
  const Json &edit = copy["fixes"][0]["edits"][0];
  EXPECT_EQ(copy["fixes"][0]["description"], "use cudaMemcpyAsync");
  EXPECT_EQ(copy["fixes"][0]["applicable"], true);
  EXPECT_EQ(copy["fixes"][1]["applicable"], false);
  EXPECT_EQ(edit, (Json{{"file", kKernelFile}, {"offset", 89}, {"length", 10},
                        {"replacement", "cudaMemcpyAsync"}, {"line", 3},
                        {"column", 16}, {"end_line", 3}, {"end_column", 26}}));
  EXPECT_EQ(copy["dynamic"],
            (Json{{"status", "confirmed"}, {"calls", 1200}, {"misuses", 1200},
                  {"host_time_us", 3100.0}, {"bytes", 8 << 20},
                  {"detail", "pageable host memory"}}));
  EXPECT_FALSE(doc["findings"][2].contains("dynamic"));
  EXPECT_EQ(copy["fingerprint"].get<std::string>().size(), 32u);

  ASSERT_EQ(doc["problems"].size(), 1u);
  EXPECT_EQ(doc["problems"][0]["file"], "/work/proj/src/broken.cu");
  EXPECT_EQ(doc["problems"][0]["partial"], true);
  EXPECT_EQ(doc["problems"][0]["errors"].size(), 1u);

  EXPECT_EQ(doc["summary"]["findings"], 3);
  EXPECT_EQ(doc["summary"]["by_severity"]["warning"], 2);
  EXPECT_EQ(doc["summary"]["by_severity"]["note"], 1);
  EXPECT_EQ(doc["summary"]["by_check"]["sync-memcpy"], 1);
  EXPECT_EQ(doc["summary"]["translation_units"], 2);
  EXPECT_EQ(doc["summary"]["problems"], 1);
}

TEST(JsonWriterTest, EditPositionsComputedFromOffsetsWhenMissing) {
  SourceTextCache sources;
  sources.setContents("/p/a.cu", "ab\ncd\n");
  AnalysisResult result;
  Finding f;
  f.checkId = "c";
  f.location = {"/p/a.cu", 2, 1};
  FixIt fix;
  TextEdit e;
  e.file = "/p/a.cu";
  e.offset = 4; // 'd'
  e.length = 1;
  fix.edits.push_back(e);
  f.fixes.push_back(fix);
  result.findings.push_back(f);
  Json doc = renderJson(OutputFormat::Json, result, OutputOptions(), sources);
  const Json &edit = doc["findings"][0]["fixes"][0]["edits"][0];
  EXPECT_EQ(edit["line"], 2);
  EXPECT_EQ(edit["column"], 2);
  EXPECT_EQ(edit["end_line"], 2);
  EXPECT_EQ(edit["end_column"], 3);
}

TEST(JsonWriterTest, InvalidUtf8DoesNotThrow) {
  AnalysisResult result;
  Finding f;
  f.checkId = "c";
  f.message = "bad \xff byte";
  f.location = {"/p/a.cu", 1, 1};
  result.findings.push_back(f);
  SourceTextCache sources;
  Json doc = renderJson(OutputFormat::Json, result, OutputOptions(), sources);
  EXPECT_EQ(doc["findings"][0]["message"], "bad \xEF\xBF\xBD byte");
}

TEST(GitlabWriterTest, CodeQualityIssues) {
  SourceTextCache sources;
  AnalysisResult result = richResult(sources);
  Json issues = renderJson(OutputFormat::Gitlab, result, richOptions(), sources);
  ASSERT_TRUE(issues.is_array());
  ASSERT_EQ(issues.size(), 3u);
  const Json &first = issues[0]; // the confirmed finding leads
  EXPECT_EQ(first["check_name"], "sync-memcpy");
  EXPECT_EQ(first["severity"], "major"); // confirmed warning ranks higher
  EXPECT_EQ(first["location"],
            (Json{{"path", "src/kernels.cu"}, {"lines", {{"begin", 3}}}}));
  EXPECT_NE(first["description"].get<std::string>().find("[confirmed: "),
            std::string::npos);
  EXPECT_EQ(issues[1]["severity"], "info");
  EXPECT_EQ(issues[1]["location"]["path"], kOutsideFile); // outside the base
  EXPECT_EQ(issues[2]["severity"], "minor");
  std::set<std::string> fingerprints;
  for (const Json &issue : issues)
    fingerprints.insert(issue["fingerprint"].get<std::string>());
  EXPECT_EQ(fingerprints.size(), 3u);
}

} // namespace
} // namespace streamlint
