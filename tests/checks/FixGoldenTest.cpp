// For every testdata/fixes/<name>.cu with a <name>.cu.fixed golden: the
// applicable fixes turn the input into the golden, the result compiles, and
// a second run finds nothing left to fix.
#include "TestEnvironment.h"
#include "TestInput.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> goldenInputs() {
  std::vector<std::string> inputs;
  fs::path directory = testdataDirectory() + "/fixes";
  if (!fs::exists(directory))
    return inputs;
  for (const auto &entry : fs::directory_iterator(directory))
    if (entry.path().extension() == ".cu" &&
        fs::exists(entry.path().string() + ".fixed"))
      inputs.push_back(entry.path().string());
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::string readFile(const std::string &path) {
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

/// Applies the applicable edits for `file`; fails the test on overlaps.
std::string applyEdits(const std::string &file, std::string text,
                       const std::vector<Finding> &findings) {
  std::vector<TextEdit> edits;
  for (const Finding &finding : findings)
    for (const FixIt &fix : finding.fixes)
      if (fix.applicable)
        for (const TextEdit &edit : fix.edits)
          if (edit.file == file)
            edits.push_back(edit);
  std::sort(edits.begin(), edits.end(), [](const TextEdit &a, const TextEdit &b) {
    return a.offset > b.offset;
  });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const TextEdit &a, const TextEdit &b) {
                            return a.offset == b.offset && a.length == b.length &&
                                   a.replacement == b.replacement;
                          }),
              edits.end());
  for (size_t i = 0; i + 1 < edits.size(); ++i)
    EXPECT_LE(edits[i + 1].offset + edits[i + 1].length, edits[i].offset)
        << "overlapping edits at offset " << edits[i].offset;
  for (const TextEdit &edit : edits) {
    EXPECT_LE(edit.offset + edit.length, text.size());
    text.replace(edit.offset, edit.length, edit.replacement);
  }
  return text;
}

class FixGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FixGolden, FixesProduceGoldenAndAreIdempotent) {
  const std::string path = GetParam();
  TestInput input = readTestInput(path);
  std::string checks = input.checks;
  if (checks.empty())
    checks = "-*," + checkNamedBy(input.name, registeredCheckIds());
  CheckOptions options;
  for (const auto &[key, value] : input.checkOptions)
    options.set(key, value);

  AnalysisResult before = analyzeForTest(
      entriesFor({path}, input.runArgs, CudaEnvironment::Stub), checks, options);
  ASSERT_TRUE(before.problems.empty()) << "input does not compile";
  std::string fixed = applyEdits(path, readFile(path), before.findings);
  EXPECT_EQ(readFile(path + ".fixed"), fixed);

  // The fixed text must compile and leave nothing to fix.
  fs::path scratch = fs::temp_directory_path() /
                     ("streamlint-fix-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  fs::path copy = scratch / fs::path(path).filename();
  std::ofstream(copy, std::ios::binary) << fixed;
  AnalysisResult after = analyzeForTest(
      entriesFor({copy.string()}, input.runArgs, CudaEnvironment::Stub), checks,
      options);
  for (const TranslationUnitProblem &problem : after.problems)
    for (const std::string &error : problem.errors)
      ADD_FAILURE() << "fixed file does not compile: " << error;
  for (const Finding &finding : after.findings)
    for (const FixIt &fix : finding.fixes)
      EXPECT_FALSE(fix.applicable)
          << "still fixable after --fix: line " << finding.location.line << ": "
          << finding.message;
  fs::remove_all(scratch);
}

std::string caseName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = fs::path(info.param).filename().string();
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Testdata, FixGolden, ::testing::ValuesIn(goldenInputs()),
                         caseName);

// A golden suite with no cases proves nothing, and an input without its
// golden would be skipped silently: each input has a .fixed file (what
// --fix writes), or a .suggested one for a check whose edits are suggestions
// only (LibraryDefaultStreamFixTest applies those).
TEST(FixGoldenSuite, HasCasesAndEveryInputHasItsGolden) {
  EXPECT_GE(goldenInputs().size(), 4u);
  for (const auto &entry : fs::directory_iterator(testdataDirectory() + "/fixes"))
    if (entry.path().extension() == ".cu")
      EXPECT_TRUE(fs::exists(entry.path().string() + ".fixed") ||
                  fs::exists(entry.path().string() + ".suggested"))
          << entry.path() << " has no .fixed (or .suggested) golden";
}

} // namespace
} // namespace streamlint::testing
