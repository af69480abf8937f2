// default-stream's suggested stream (ProgramStream): a local stream of the
// function, else the global or member stream the function's, the class's or
// the file's other work runs on, else cudaStreamPerThread as advice only.
#include "TestEnvironment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {

struct SuggestionCase {
  const char *siteText; // unique text on the finding's line
  const char *stream;   // what the fix passes
  bool applicable;      // an automatic edit, or advice to review
  const char *evidence; // part of the fix's description
};

const SuggestionCase Cases[] = {
    {"cudaEventRecord(start); // CHECK: default-stream {{", "g_stream", false,
     "the rest of this file's work runs on"},
    {"cudaEventRecord(stop, 0);", "g_stream", false, "the rest of this file"},
    // Not applied by --fix since the ordering rules (docs/fixes.md): g_stream is
    // not created in sameFunction (it may be non-blocking) and the function
    // returns to callers whose later work relied on the legacy stream.
    {"void sameFunction", "g_stream", false, "this function's other work runs on"},
    {"cudaEvent_t start;\n  cudaEventRecord(start);", "cudaStreamPerThread", false,
     "no single stream"}, // before cudaStreamCreate(&g_stream): not ready
    {"cudaStreamCreate(&g_stream);\n  cudaEventRecord(start);", "g_stream", false,
     "the rest of this file"},
    {"cudaStream_t stream_;", "stream_", false, "this class's other methods"},
    {"cudaStream_t first_", "cudaStreamPerThread", false, "no single stream"},
};

std::string inputPath() {
  return testdataDirectory() + "/checks/default-stream-suggestions.cu";
}

/// The line of the first `cudaEventRecord` at or after `needle` (or, for a
/// class's fields, the last one before it).
unsigned lineOfSite(const std::string &text, const std::string &needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos)
    return 0;
  size_t site = needle.rfind("cudaStream_t ", 0) == 0 ? text.rfind("cudaEventRecord", at)
                : needle.rfind("void ", 0) == 0       ? text.find("cudaEventRecord", at)
                                                      : text.find("cudaEventRecord", at);
  if (site == std::string::npos)
    return 0;
  return 1 + static_cast<unsigned>(std::count(text.begin(), text.begin() + site, '\n'));
}

class DefaultStreamSuggestion : public ::testing::TestWithParam<SuggestionCase> {};

TEST_P(DefaultStreamSuggestion, SuggestsTheStreamInUse) {
  const SuggestionCase &test = GetParam();
  std::ifstream in(inputPath());
  std::stringstream text;
  text << in.rdbuf();
  unsigned line = lineOfSite(text.str(), test.siteText);
  ASSERT_NE(line, 0u) << "not in the input: " << test.siteText;
  static const AnalysisResult result = analyzeForTest(
      entriesFor({inputPath()}, {}, CudaEnvironment::Stub), "-*,default-stream", {});
  ASSERT_TRUE(result.problems.empty());
  const Finding *finding = nullptr;
  for (const Finding &candidate : result.findings)
    if (candidate.location.line == line)
      finding = &candidate;
  ASSERT_NE(finding, nullptr) << "no finding on line " << line;
  ASSERT_EQ(finding->fixes.size(), 1u) << "line " << line;
  const FixIt &fix = finding->fixes[0];
  ASSERT_EQ(fix.edits.size(), 1u);
  EXPECT_NE(fix.edits[0].replacement.find(test.stream), std::string::npos)
      << "line " << line << ": " << fix.edits[0].replacement;
  EXPECT_EQ(fix.applicable, test.applicable) << "line " << line << ": " << fix.description;
  EXPECT_NE(fix.description.find(test.evidence), std::string::npos)
      << "line " << line << ": " << fix.description;
}

INSTANTIATE_TEST_SUITE_P(Suggestions, DefaultStreamSuggestion, ::testing::ValuesIn(Cases));

} // namespace
} // namespace streamlint::testing
