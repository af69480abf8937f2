#include "analyzer/baseline/Baseline.h"
#include "analyzer/baseline/Fingerprint.h"
#include "analyzer/support/SourceTextCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

/// A temporary file removed at the end of the test.
struct TempFile {
  llvm::SmallString<128> path;
  explicit TempFile(const char *suffix) {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("baseline", suffix, path));
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  void write(const std::string &text) const {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << text;
  }
  std::string str() const { return std::string(path); }
};

constexpr const char *kFile = "/p/src/a.cu";

/// What a check would report on each `sync(...)` statement of `source`.
std::vector<Finding> findingsIn(const std::string &source) {
  std::vector<Finding> findings;
  unsigned line = 1;
  std::size_t start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    std::string text = source.substr(start, end - start);
    std::size_t at = text.find("sync(");
    if (at != std::string::npos) {
      Finding f;
      f.checkId = "sync-memcpy";
      f.location = {kFile, line, static_cast<unsigned>(at) + 1};
      f.message = "synchronous copy";
      f.function = "run";
      f.snippet = text.substr(at);
      findings.push_back(f);
    }
    ++line;
    start = end == std::string::npos ? source.size() : end + 1;
  }
  return findings;
}

const char *kVersion1 = "void run() {\n"
                        "  sync(a, b);\n"
                        "  sync(c, d);\n"
                        "}\n";
// Lines added above, one statement reformatted, one statement changed.
const char *kVersion2 = "// new header\n"
                        "#include <x>\n"
                        "void run() {\n"
                        "  sync(a,\n"
                        "       b);\n"
                        "  sync(c, e);\n"
                        "}\n";

class BaselineRoundTrip : public ::testing::TestWithParam<OutputFormat> {};

TEST_P(BaselineRoundTrip, OnlyChangedStatementsAreNew) {
  TempFile file(GetParam() == OutputFormat::Sarif ? "sarif" : "json");
  OutputOptions options;
  options.baseDirectory = "/p";
  SourceTextCache sources;
  AnalysisResult before;
  before.findings = findingsIn(kVersion1);
  ASSERT_EQ(before.findings.size(), 2u);
  assignFingerprints(before.findings, "/p", sources);
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(file.path, ec);
    ASSERT_FALSE(ec);
    writeFindings(GetParam(), before, options, sources, out);
  }
  llvm::Expected<Baseline> baseline = readBaseline(file.str());
  ASSERT_TRUE(bool(baseline)) << llvm::toString(baseline.takeError());
  EXPECT_EQ(baseline->fingerprints.size(), 2u);

  // The reformatted statement spans two lines: its snippet is still the whole
  // statement, so it matches.
  std::vector<Finding> after = findingsIn(kVersion2);
  ASSERT_EQ(after.size(), 2u);
  after[0].snippet = "sync(a,\n       b);";
  assignFingerprints(after, "/p", sources);
  EXPECT_EQ(removeBaselineFindings(after, *baseline), 1u);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].location.line, 6u);
  EXPECT_EQ(after[0].snippet, "sync(c, e);");
}

INSTANTIATE_TEST_SUITE_P(Formats, BaselineRoundTrip,
                         ::testing::Values(OutputFormat::Json, OutputFormat::Sarif));

TEST(BaselineTest, WriteBaselineFileIsReadable) {
  TempFile file("json");
  AnalysisResult result;
  result.findings = findingsIn(kVersion1);
  SourceTextCache sources;
  assignFingerprints(result.findings, "", sources);
  ASSERT_FALSE(bool(writeBaselineFile(file.str(), result, OutputOptions(), sources)));
  llvm::Expected<Baseline> baseline = readBaseline(file.str());
  ASSERT_TRUE(bool(baseline)) << llvm::toString(baseline.takeError());
  EXPECT_EQ(baseline->fingerprints.size(), 2u);
}

/// The fingerprints --write-baseline records are the ones every report of the
/// same run prints (JSON, SARIF): assigned once, before either is written.
TEST(BaselineTest, ReportsCarryTheBaselinesFingerprints) {
  TempFile baselineFile("json"), jsonReport("json"), sarifReport("sarif");
  SourceTextCache sources;
  AnalysisResult result;
  result.findings = findingsIn(kVersion1);
  OutputOptions options;
  options.baseDirectory = "/p";
  assignFingerprints(result.findings, options.baseDirectory, sources);
  ASSERT_FALSE(bool(applyBaselineOptions("", baselineFile.str(), result, options, sources)));
  for (const TempFile *report : {&jsonReport, &sarifReport}) {
    std::error_code ec;
    llvm::raw_fd_ostream out(report->path, ec);
    ASSERT_FALSE(ec);
    writeFindings(report == &jsonReport ? OutputFormat::Json : OutputFormat::Sarif, result,
                  options, sources, out);
  }
  llvm::Expected<Baseline> baseline = readBaseline(baselineFile.str());
  ASSERT_TRUE(bool(baseline)) << llvm::toString(baseline.takeError());
  std::set<std::string> assigned;
  for (const Finding &f : result.findings)
    assigned.insert(f.fingerprint);
  EXPECT_EQ(assigned.size(), 2u);
  EXPECT_EQ(baseline->fingerprints, assigned);
  for (const TempFile *report : {&jsonReport, &sarifReport}) {
    llvm::Expected<Baseline> fromReport = readBaseline(report->str());
    ASSERT_TRUE(bool(fromReport)) << llvm::toString(fromReport.takeError());
    EXPECT_EQ(fromReport->fingerprints, baseline->fingerprints) << report->str();
  }
}

struct BadCase {
  const char *name;
  const char *content; // nullptr: the file does not exist
  const char *expected;
};

TEST(BaselineTest, BadFilesGiveErrorsNamingThem) {
  const BadCase cases[] = {
      {"missing", nullptr, "cannot read"},
      {"not json", "{oops", "not valid JSON"},
      {"array", "[]", "expected a JSON object"},
      {"unknown shape", "{\"a\": 1}", "neither streamlint JSON"},
      {"future version", "{\"version\": 2, \"findings\": []}", "unsupported"},
      {"no fingerprint", "{\"version\": 1, \"findings\": [{\"check\": \"x\"}]}",
       "findings[0] has no 'fingerprint'"},
      {"other tool", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": "
                     "{\"name\": \"clang-tidy\"}}, \"results\": []}]}",
       "not a streamlint run"},
      {"sarif without fingerprints",
       "{\"runs\": [{\"tool\": {\"driver\": {\"name\": \"streamlint\"}}, "
       "\"results\": [{\"ruleId\": \"x\"}]}]}",
       "has no partialFingerprints"},
      {"wrong types", "{\"runs\": [{\"tool\": {\"driver\": {\"name\": 3}}}]}",
       "baseline"},
  };
  for (const BadCase &c : cases) {
    TempFile file("json");
    if (c.content)
      file.write(c.content);
    else
      llvm::sys::fs::remove(file.path);
    llvm::Expected<Baseline> baseline = readBaseline(file.str());
    ASSERT_FALSE(bool(baseline)) << c.name;
    std::string message = llvm::toString(baseline.takeError());
    EXPECT_NE(message.find(file.str()), std::string::npos) << c.name << ": " << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.name << ": " << message;
  }
}

} // namespace
} // namespace streamlint
