// Runs every input under testdata/checks/ in both CUDA environments and
// demands an exact match, both ways, between findings and `// CHECK:` lines.
#include "TestEnvironment.h"
#include "TestInput.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace streamlint::testing {
namespace {

struct Case {
  std::string path;
  CudaEnvironment environment;
};

// Readable test names in gtest and ctest output instead of a byte dump.
void PrintTo(const Case &testCase, std::ostream *out) {
  *out << std::filesystem::path(testCase.path).filename().string() << " ("
       << environmentName(testCase.environment) << ")";
}

std::vector<Case> allCases() {
  std::vector<std::string> paths;
  for (const auto &entry :
       std::filesystem::directory_iterator(testdataDirectory() + "/checks"))
    if (entry.is_directory() || entry.path().extension() == ".cu")
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<Case> cases;
  for (const std::string &path : paths)
    for (CudaEnvironment environment : {CudaEnvironment::Stub, CudaEnvironment::Real})
      cases.push_back({path, environment});
  return cases;
}

std::string describe(const Finding &finding) {
  std::ostringstream out;
  out << finding.location.file << ":" << finding.location.line << ":"
      << finding.location.column << ": " << severityName(finding.severity)
      << ": " << finding.message << " [" << finding.checkId << "]";
  return out.str();
}

bool matches(const Expectation &expected, const Finding &finding) {
  bool related = expected.relatedSubstring.empty() ||
                 std::any_of(finding.related.begin(), finding.related.end(),
                             [&](const RelatedLocation &note) {
                               return note.message.find(expected.relatedSubstring) !=
                                      std::string::npos;
                             });
  return expected.file == finding.location.file &&
         expected.line == finding.location.line &&
         (expected.column == 0 || expected.column == finding.location.column) &&
         expected.checkId == finding.checkId &&
         expected.severity == finding.severity &&
         finding.message.find(expected.messageSubstring) != std::string::npos && related;
}

class CheckExpectations : public ::testing::TestWithParam<Case> {};

TEST_P(CheckExpectations, FindingsMatchExactly) {
  const Case &testCase = GetParam();
  TestInput input = readTestInput(testCase.path);
  for (const std::string &error : input.errors)
    ADD_FAILURE() << error;
  if (!input.environment.empty() &&
      input.environment != environmentName(testCase.environment))
    GTEST_SKIP() << "ENV: " << input.environment;
  if (testCase.environment == CudaEnvironment::Real && !realToolkitAvailable())
    GTEST_SKIP() << "no CUDA toolkit headers";

  std::string checks = input.checks;
  if (checks.empty()) {
    std::string named = checkNamedBy(input.name, registeredCheckIds());
    ASSERT_FALSE(named.empty())
        << input.name << ": name starts with no check id; add // CHECKS:";
    checks = "-*," + named;
  }
  CheckOptions options;
  for (const auto &[key, value] : input.checkOptions)
    options.set(key, value);

  AnalysisResult result = analyzeForTest(
      entriesFor(input.files, input.runArgs, testCase.environment), checks,
      options);
  for (const TranslationUnitProblem &problem : result.problems)
    for (const std::string &error : problem.errors)
      ADD_FAILURE() << "test input does not compile (" << problem.file
                    << "): " << error;

  std::vector<bool> used(input.expectations.size(), false);
  for (const Finding &finding : result.findings) {
    bool found = false;
    for (size_t i = 0; i < input.expectations.size() && !found; ++i)
      if (!used[i] && matches(input.expectations[i], finding))
        used[i] = found = true;
    if (!found)
      ADD_FAILURE() << "unexpected finding: " << describe(finding);
  }
  for (size_t i = 0; i < input.expectations.size(); ++i) {
    const Expectation &expected = input.expectations[i];
    if (!used[i])
      ADD_FAILURE() << "missing finding: " << expected.file << ":"
                    << expected.line << ": " << severityName(expected.severity)
                    << " [" << expected.checkId << "]"
                    << (expected.messageSubstring.empty()
                            ? ""
                            : " containing '" + expected.messageSubstring + "'");
  }
}

std::string caseName(const ::testing::TestParamInfo<Case> &info) {
  std::string name = std::filesystem::path(info.param.path).filename().string();
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name + "_" + environmentName(info.param.environment);
}

INSTANTIATE_TEST_SUITE_P(Testdata, CheckExpectations,
                         ::testing::ValuesIn(allCases()), caseName);

} // namespace
} // namespace streamlint::testing
