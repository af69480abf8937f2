#include "analyzer/index/ShardPart.h"

#include <gtest/gtest.h>

#include <set>

using namespace streamlint;
using namespace streamlint::index;

namespace {

TEST(ShardPartTest, ShardOfIsStableAndCoversEveryShard) {
  // Fixed values: the assignment must not change between versions or hosts
  // (a merge of parts written on other machines relies on it).
  EXPECT_EQ(shardOf("src/a.cu", 1), 0u);
  unsigned first = shardOf("../src/kernels/step.cu", 7);
  EXPECT_EQ(first, shardOf("../src/kernels/step.cu", 7));
  EXPECT_LT(first, 7u);
  std::set<unsigned> seen;
  for (int i = 0; i < 200; ++i)
    seen.insert(shardOf("src/file" + std::to_string(i) + ".cu", 4));
  EXPECT_EQ(seen.size(), 4u) << "200 files should reach every one of 4 shards";
  // SHA-256("a.cu") = 6f3f272eadc22679...: its first 64 bits mod 1000 are
  // 305 (computed with Python's hashlib), so the hash itself is pinned.
  EXPECT_EQ(shardOf("a.cu", 1000), 305u);
}

ShardPart samplePart() {
  ShardPart part;
  part.tool = "streamlint 9.9";
  part.shard = 2;
  part.count = 3;
  part.database = "/p/build/compile_commands.json";
  part.skipWithoutCuda = true;
  ShardUnit unit;
  unit.file = "../src/a.cu";
  unit.key = "k1";
  Finding finding;
  finding.checkId = "device-sync";
  finding.location = {"/p/src/a.cu", 3, 4};
  finding.end = {"/p/src/a.cu", 3, 9};
  finding.message = "sync";
  unit.unit.findings.push_back(finding);
  unit.unit.reach.mainFile = "/p/src/a.cu";
  unit.unit.includes.push_back({"/p/src/a.cu", "abc"});
  TranslationUnitProblem problem;
  problem.file = "/p/src/a.cu";
  problem.errors = {"a.cu:1:1: error: x"};
  problem.fatalError = "a.cu:2:1: fatal error: y";
  problem.crashed = false;
  problem.analyzedPartially = true;
  unit.unit.problem = problem;
  part.units.push_back(unit);
  ShardUnit skipped;
  skipped.file = "../src/host.cpp";
  skipped.key = "k2";
  skipped.skippedWithoutCuda = true;
  part.units.push_back(skipped);
  return part;
}

TEST(ShardPartTest, RoundTripsEveryField) {
  ShardPart parsed;
  std::string error;
  ASSERT_TRUE(shardPartFromJson(shardPartToJson(samplePart()), "p.json", parsed, error))
      << error;
  EXPECT_EQ(parsed.tool, "streamlint 9.9");
  EXPECT_EQ(parsed.shard, 2u);
  EXPECT_EQ(parsed.count, 3u);
  EXPECT_EQ(parsed.database, "/p/build/compile_commands.json");
  EXPECT_TRUE(parsed.skipWithoutCuda);
  ASSERT_EQ(parsed.units.size(), 2u);
  const ShardUnit &unit = parsed.units[0];
  EXPECT_EQ(unit.file, "../src/a.cu");
  EXPECT_EQ(unit.key, "k1");
  ASSERT_EQ(unit.unit.findings.size(), 1u);
  EXPECT_EQ(unit.unit.findings[0].location.line, 3u);
  ASSERT_TRUE(unit.unit.problem.has_value());
  EXPECT_EQ(unit.unit.problem->fatalError, "a.cu:2:1: fatal error: y");
  EXPECT_EQ(unit.unit.reach.mainFile, "/p/src/a.cu");
  ASSERT_EQ(unit.unit.includes.size(), 1u);
  EXPECT_EQ(unit.unit.includes[0].sha256, "abc");
  EXPECT_TRUE(parsed.units[1].skippedWithoutCuda);
  EXPECT_FALSE(parsed.units[1].unit.problem.has_value());
}

TEST(ShardPartTest, RefusesDamagedOrForeignParts) {
  std::string text = shardPartToJson(samplePart());
  ShardPart parsed;
  std::string error;
  EXPECT_FALSE(shardPartFromJson(text.substr(0, text.size() / 2), "p.json", parsed, error));
  EXPECT_NE(error.find("p.json: not a shard part (truncated"), std::string::npos) << error;
  EXPECT_FALSE(shardPartFromJson("{\"format\": \"streamlint-index-entry-1\"}", "q.json",
                                 parsed, error));
  EXPECT_NE(error.find(std::string("q.json: not a ") + kShardFormat + " shard part"), std::string::npos);
  // A format that is not a string: an error, not an uncaught type_error.
  for (const char *foreign : {"{\"format\":7}", "{\"format\":5,\"shard\":7}",
                              "{\"format\":null}", "{\"format\":[\"x\"]}"}) {
    EXPECT_FALSE(shardPartFromJson(foreign, "s.json", parsed, error)) << foreign;
    EXPECT_NE(error.find("s.json: not a "), std::string::npos) << error;
  }
  std::string incomplete = text;
  incomplete.replace(incomplete.find("\"complete\":true"), 15, "\"complete\":false");
  EXPECT_FALSE(shardPartFromJson(incomplete, "r.json", parsed, error));
  EXPECT_NE(error.find("r.json: malformed shard part: incomplete"), std::string::npos);
  std::string outOfRange = text;
  outOfRange.replace(outOfRange.find("\"shard\":2"), 9, "\"shard\":4");
  EXPECT_FALSE(shardPartFromJson(outOfRange, "s.json", parsed, error));
  EXPECT_NE(error.find("shard 4/3 is out of range"), std::string::npos) << error;
}

} // namespace
