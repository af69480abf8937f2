// library-default-stream's fix-its are suggestions (--fix does not apply
// them until ordering safety is checked), so the applicable-only golden test
// cannot see them. Here every suggested edit is applied to
// testdata/fixes/library-default-stream.cu and the result must equal
// library-default-stream.cu.suggested, compile, and leave only the findings that had no suggestion.
#include "TestEnvironment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string applyEverySuggestion(const std::string &text,
                                 const std::vector<Finding> &findings) {
  std::vector<TextEdit> edits;
  for (const Finding &finding : findings)
    for (const FixIt &fix : finding.fixes) {
      EXPECT_FALSE(fix.applicable) << finding.message << ": " << fix.description;
      edits.insert(edits.end(), fix.edits.begin(), fix.edits.end());
    }
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit &a, const TextEdit &b) { return a.offset > b.offset; });
  std::string result = text;
  for (const TextEdit &edit : edits)
    result.replace(edit.offset, edit.length, edit.replacement);
  return result;
}

TEST(LibraryDefaultStreamSuggestions, EveryEditGivesTheGolden) {
  std::string input = testdataDirectory() + "/fixes/library-default-stream.cu";
  AnalysisResult before = analyzeForTest(entriesFor({input}, {}, CudaEnvironment::Stub),
                                         "-*,library-default-stream", {});
  ASSERT_TRUE(before.problems.empty());
  ASSERT_FALSE(before.findings.empty());
  std::string fixed = applyEverySuggestion(readFile(input), before.findings);
  EXPECT_EQ(fixed, readFile(input + ".suggested"));

  // The result parses and only the findings without a suggestion are left.
  size_t unfixed = std::count_if(before.findings.begin(), before.findings.end(),
                                 [](const Finding &f) { return f.fixes.empty(); });
  EXPECT_GT(unfixed, 0u);
  std::string output = std::filesystem::temp_directory_path().string() +
                       "/library-default-stream-suggested.cu";
  std::ofstream(output) << fixed;
  AnalysisResult after = analyzeForTest(entriesFor({output}, {}, CudaEnvironment::Stub),
                                        "-*,library-default-stream", {});
  EXPECT_TRUE(after.problems.empty());
  EXPECT_EQ(after.findings.size(), unfixed);
  std::filesystem::remove(output);
}

} // namespace
} // namespace streamlint::testing
