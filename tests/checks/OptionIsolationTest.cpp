// One check's options leave every other check's findings unchanged: the call
// graph and every shared analysis depend on the CUDA API table alone. For
// each option of each check, set to a value that changes that check's own
// findings on testdata/options/isolation.cu, the other checks' findings
// (location, severity, message, related locations, fixes) are compared with
// a run without options.
#include "TestEnvironment.h"
#include "checks/CheckRegistry.h"

#include <gtest/gtest.h>

#include <map>
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
  std::string key;
  std::string value;        // "": no value known to change its check's findings
  std::string define = "";  // a build mode where the option matters
};

/// For each option, a value that changes its own check's findings on
/// isolation.cu (and the build mode where it matters).
const std::map<std::string, std::pair<std::string, std::string>> &changingValues() {
  static const std::map<std::string, std::pair<std::string, std::string>> values = {
      {"alloc-in-loop.ExtraAllocFunctions", {"poolAlloc", ""}},
      {"alloc-in-loop.ExtraFreeFunctions", {"poolFree", ""}},
      {"device-sync.ExtraSyncFunctions", {"poolFree", ""}},
      {"default-stream.PerThreadDefaultStream",
       {"note", "CUDA_API_PER_THREAD_DEFAULT_STREAM=1"}},
      {"pageable-memcpy-async.Strict", {"true", ""}},
  };
  return values;
}

/// Every option every registered check declares.
std::vector<OptionCase> everyDeclaredOption() {
  CheckRegistry registry;
  registerAllChecks(registry);
  std::vector<OptionCase> cases;
  for (const auto &[key, spec] : registry.optionCatalog().options) {
    auto found = changingValues().find(key);
    cases.push_back(found == changingValues().end()
                        ? OptionCase{key, "", ""}
                        : OptionCase{key, found->second.first, found->second.second});
  }
  return cases;
}

class OptionIsolation : public ::testing::TestWithParam<OptionCase> {};

TEST_P(OptionIsolation, OtherChecksFindingsAreUnchanged) {
  ASSERT_FALSE(GetParam().value.empty())
      << GetParam().key << ": add a value that changes its check's findings on "
      << "testdata/options/isolation.cu to changingValues()";
  std::vector<std::string> args;
  if (!GetParam().define.empty())
    args.push_back("-D" + GetParam().define);
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
  std::string owner = GetParam().key.substr(0, GetParam().key.find('.'));
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
    ::testing::ValuesIn(everyDeclaredOption()),
    [](const ::testing::TestParamInfo<OptionCase> &info) {
      std::string name = info.param.key;
      for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

} // namespace
} // namespace streamlint::testing
