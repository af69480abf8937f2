// The expectation parser must itself be right, or check tests prove nothing.
#include "TestInput.h"

#include <gtest/gtest.h>

namespace streamlint::testing {
namespace {

TEST(TestInput, ParsesExpectationsDirectivesAndOffsets) {
  TestInput input;
  parseTestText("/t.cu",
                "// RUN-ARGS: -DA=1 -DB\n"
                "// CHECK-OPTION: default-stream.Mode = note\n"
                "// CHECKS: -*,device-sync\n"
                "// ENV: stub\n"
                "f(); // CHECK: device-sync, device-sync(note) {{a, b}}\n"
                "// CHECK@+1: alloc-in-loop(error)\n"
                "g();\n",
                input);
  EXPECT_TRUE(input.errors.empty());
  EXPECT_EQ((std::vector<std::string>{"-DA=1", "-DB"}), input.runArgs);
  ASSERT_EQ(1u, input.checkOptions.size());
  EXPECT_EQ("default-stream.Mode", input.checkOptions[0].first);
  EXPECT_EQ("note", input.checkOptions[0].second);
  EXPECT_EQ("-*,device-sync", input.checks);
  EXPECT_EQ("stub", input.environment);
  ASSERT_EQ(3u, input.expectations.size());
  EXPECT_EQ(5u, input.expectations[0].line);
  EXPECT_EQ(Severity::Warning, input.expectations[0].severity);
  EXPECT_EQ(Severity::Note, input.expectations[1].severity);
  EXPECT_EQ("a, b", input.expectations[1].messageSubstring);
  EXPECT_EQ(7u, input.expectations[2].line);
  EXPECT_EQ("alloc-in-loop", input.expectations[2].checkId);
  EXPECT_EQ(Severity::Error, input.expectations[2].severity);
}

TEST(TestInput, ParsesColumnsAndRelatedNotes) {
  TestInput input;
  parseTestText("/t.cu",
                "f(); // CHECK: default-stream:3 {{no stream, given}} [[declared here, once]], "
                "device-sync(note):12\n",
                input);
  EXPECT_TRUE(input.errors.empty());
  ASSERT_EQ(2u, input.expectations.size());
  EXPECT_EQ(3u, input.expectations[0].column);
  EXPECT_EQ("no stream, given", input.expectations[0].messageSubstring);
  EXPECT_EQ("declared here, once", input.expectations[0].relatedSubstring);
  EXPECT_EQ(12u, input.expectations[1].column);
  EXPECT_EQ(Severity::Note, input.expectations[1].severity);
  EXPECT_TRUE(input.expectations[1].relatedSubstring.empty());
}

TEST(TestInput, ReportsMalformedLines) {
  TestInput input;
  parseTestText("/t.cu",
                "x(); // CHECK: bad id!\n"
                "// CHECK-OPTION: missing-equals\n"
                "// ENV: gpu\n",
                input);
  EXPECT_EQ(3u, input.errors.size());
  EXPECT_TRUE(input.expectations.empty());
}

TEST(TestInput, NamesTheLongestMatchingCheck) {
  std::vector<std::string> ids = {"device-sync", "default-stream", "device"};
  EXPECT_EQ("device-sync", checkNamedBy("device-sync-ptds.cu", ids));
  EXPECT_EQ("", checkNamedBy("other.cu", ids));
}

} // namespace
} // namespace streamlint::testing
