// One check's options leave every other check's findings unchanged: the call
// graph and every shared analysis depend on the CUDA API table alone. For
// each option of each check, set to a value that changes that check's own
// findings on testdata/options/isolation.cu, the other checks' findings
// (location, severity, message, related locations, fixes) are compared with
// a run without options.
#include "TestEnvironment.h"

#include <gtest/gtest.h>

#include <sstream>

namespace streamlint::testing {
namespace {

std::string describe(const Finding &finding) {
  std::ostringstream out;
  out << finding.location.line << ":" << finding.location.column << " "
      << severityName(finding.severity) << " " << finding.message;
  for (const RelatedLocation &related : finding.related)
    out << " | " << related.location.line << ": " << related.message;
  out << " | fixes " << finding.fixes.size();
  return out.str();
}

/// Findings of each check, described.
std::map<std::string, std::vector<std::string>> byCheck(const AnalysisResult &result) {
  std::map<std::string, std::vector<std::string>> findings;
  for (const Finding &finding : result.findings)
    findings[finding.checkId].push_back(describe(finding));
  return findings;
}

struct OptionCase {
  const char *key;
  const char *value;
  const char *define = nullptr; // a build mode where the option matters
};

class OptionIsolation : public ::testing::TestWithParam<OptionCase> {};

TEST_P(OptionIsolation, OtherChecksFindingsAreUnchanged) {
  std::vector<std::string> args;
  if (GetParam().define)
    args.push_back(std::string("-D") + GetParam().define);
  std::vector<CompileEntry> entries = entriesFor(
      {testdataDirectory() + "/options/isolation.cu"}, args, CudaEnvironment::Stub);
  auto baseline = byCheck(analyzeForTest(entries, "*", CheckOptions()));
  // The scenario of the original bug: the wrapper's device sync is a
  // warning because a loop reaches it.
  ASSERT_FALSE(baseline["device-sync"].empty());
  EXPECT_NE(baseline["device-sync"].front().find("warning"), std::string::npos)
      << baseline["device-sync"].front();
  ASSERT_FALSE(baseline["api-in-host-callback"].empty());

  CheckOptions options;
  options.set(GetParam().key, GetParam().value);
  auto configured = byCheck(analyzeForTest(entries, "*", options));
  std::string owner = std::string(GetParam().key).substr(0, std::string(GetParam().key).find('.'));
  EXPECT_NE(configured[owner], baseline[owner])
      << "the option should change its own check's findings here";
  for (const auto &[check, findings] : baseline) {
    if (check == owner)
      continue;
    SCOPED_TRACE(check);
    EXPECT_EQ(configured[check], findings);
  }
  for (const auto &[check, findings] : configured)
    if (check != owner)
      EXPECT_TRUE(baseline.count(check)) << check << " appeared with " << GetParam().key;
}

INSTANTIATE_TEST_SUITE_P(
    EveryOption, OptionIsolation,
    ::testing::Values(OptionCase{"alloc-in-loop.ExtraAllocFunctions", "poolAlloc"},
                      OptionCase{"alloc-in-loop.ExtraFreeFunctions", "poolFree"},
                      OptionCase{"device-sync.ExtraSyncFunctions", "poolFree"},
                      OptionCase{"default-stream.PerThreadDefaultStream", "note",
                                 "CUDA_API_PER_THREAD_DEFAULT_STREAM=1"},
                      OptionCase{"pageable-memcpy-async.Strict", "true"}),
    [](const ::testing::TestParamInfo<OptionCase> &info) {
      std::string name = info.param.key;
      for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

} // namespace
} // namespace streamlint::testing
