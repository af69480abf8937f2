// default-stream's advice-only fix-its, which the golden test (applicable
// edits only) cannot see: where no stream is knowable the finding suggests
// cudaStreamPerThread without applying it, and macro bodies get no edit.
#include "TestEnvironment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {

struct AdviceCase {
  const char *siteText;     // unique text on the finding's line
  unsigned occurrence;      // which occurrence of siteText (0-based)
  bool hasFix;
  bool applicable;
  const char *replacement;
};

const AdviceCase Cases[] = {
    {"kernel<<<1, 32>>>(d);\n}\n\n// No stream", 0, true, false, ", 0, cudaStreamPerThread"},
    {"void noStream", 0, true, false, ", 0, cudaStreamPerThread"},
    {"void declaredLater", 0, true, false, ", 0, cudaStreamPerThread"},
    {"void unusedParameter", 0, true, false, ", 0, cudaStreamPerThread"},
    {"LAUNCH_ON_DEFAULT(d);", 0, false, false, ""},
    {"cudaStreamLegacy>>>", 0, true, false, "s"},
    {"kernel<<<dim3(4, 4)", 0, true, true, ", s"},
};

std::string fixesPath() { return testdataDirectory() + "/fixes/default-stream.cu"; }

/// The line of the first launch at or after the `occurrence`-th `needle`.
unsigned lineOfSite(const std::string &text, const std::string &needle,
                    unsigned occurrence) {
  size_t at = text.find(needle);
  for (unsigned i = 0; i < occurrence && at != std::string::npos; ++i)
    at = text.find(needle, at + 1);
  if (at == std::string::npos)
    return 0;
  if (needle.rfind("void ", 0) == 0)
    at = text.find("kernel<<<", at);  // the function's launch
  return 1 + static_cast<unsigned>(std::count(text.begin(), text.begin() + at, '\n'));
}

class DefaultStreamAdvice : public ::testing::TestWithParam<AdviceCase> {};

TEST_P(DefaultStreamAdvice, FixMatches) {
  const AdviceCase &test = GetParam();
  std::ifstream stream(fixesPath());
  std::stringstream text;
  text << stream.rdbuf();
  unsigned line = lineOfSite(text.str(), test.siteText, test.occurrence);
  ASSERT_NE(line, 0u) << "not in the golden input: " << test.siteText;

  static const AnalysisResult result = analyzeForTest(
      entriesFor({fixesPath()}, {}, CudaEnvironment::Stub), "-*,default-stream", {});
  ASSERT_TRUE(result.problems.empty());
  const Finding *finding = nullptr;
  for (const Finding &candidate : result.findings)
    if (candidate.location.line == line)
      finding = &candidate;
  ASSERT_NE(finding, nullptr) << "no finding on line " << line;
  if (!test.hasFix) {
    EXPECT_TRUE(finding->fixes.empty()) << "line " << line;
    return;
  }
  ASSERT_EQ(finding->fixes.size(), 1u) << "line " << line;
  const FixIt &fix = finding->fixes[0];
  EXPECT_EQ(fix.applicable, test.applicable) << "line " << line << ": " << fix.description;
  // Its own edit first, then the edits of the group's other moves, which it
  // carries and requires (all or none).
  ASSERT_EQ(fix.edits.size(), 1u + fix.prerequisites.size());
  EXPECT_EQ(fix.edits[0].replacement, test.replacement) << "line " << line;
  for (const FixPrerequisite &other : fix.prerequisites)
    EXPECT_EQ(other.checkId, "default-stream");
  EXPECT_FALSE(fix.description.empty());
}

INSTANTIATE_TEST_SUITE_P(Golden, DefaultStreamAdvice, ::testing::ValuesIn(Cases));

} // namespace
} // namespace streamlint::testing
