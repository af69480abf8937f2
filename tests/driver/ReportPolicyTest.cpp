// WarningsAsErrors, MinSeverity and changed lines applied to a report.
#include "analyzer/driver/ReportPolicy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace streamlint;

namespace {

Finding finding(const std::string &file, unsigned line, const char *check, Severity severity) {
  Finding result;
  result.location = {file, line, 1};
  result.checkId = check;
  result.severity = severity;
  return result;
}

CheckRegistry registry() {
  CheckRegistry result;
  registerAllChecks(result);
  return result;
}

TEST(ReportPolicy, CommandLinePromotesThenFilters) {
  AnalysisResult result;
  result.findings = {finding("/p/a.cu", 1, "device-sync", Severity::Warning),
                     finding("/p/a.cu", 2, "device-sync", Severity::Note),
                     finding("/p/a.cu", 3, "default-stream", Severity::Warning)};
  ConfigOverrides overrides;
  overrides.warningsAsErrors = "device-*";
  overrides.minSeverity = "error";
  llvm::SmallString<256> empty;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("report-policy", empty));
  for (Finding &f : result.findings)
    f.location.file = std::string(empty) + "/a.cu";
  SummaryCounts counts;
  ASSERT_FALSE(bool(applyReportPolicy(result, overrides, registry(), nullptr, counts)));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location.line, 1u);
  EXPECT_EQ(result.findings[0].severity, Severity::Error);
  EXPECT_EQ(counts.belowSeverity, 2u);
  llvm::sys::fs::remove_directories(empty);
}

TEST(ReportPolicy, ConfigNearestTheFindingsFileDecides) {
  llvm::SmallString<256> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("report-policy", root));
  llvm::SmallString<256> strict(root), lax(root);
  llvm::sys::path::append(strict, "strict");
  llvm::sys::path::append(lax, "lax");
  llvm::sys::fs::create_directories(strict);
  llvm::sys::fs::create_directories(lax);
  {
    std::error_code error;
    llvm::raw_fd_ostream out(std::string(strict) + "/.streamlint.yaml", error);
    out << "MinSeverity: warning\n";
  }
  AnalysisResult result;
  result.findings = {finding(std::string(strict) + "/a.cu", 1, "device-sync", Severity::Note),
                     finding(std::string(lax) + "/b.cu", 1, "device-sync", Severity::Note)};
  SummaryCounts counts;
  ASSERT_FALSE(bool(applyReportPolicy(result, ConfigOverrides{}, registry(), nullptr, counts)));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location.file, std::string(lax) + "/b.cu");
  EXPECT_EQ(counts.belowSeverity, 1u);
  llvm::sys::fs::remove_directories(root);
}

TEST(ReportPolicy, ChangedLinesKeepOnlyFindingsOnThem) {
  llvm::SmallString<256> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("report-policy", root));
  std::string file = std::string(root) + "/a.cu";
  { std::error_code error; llvm::raw_fd_ostream out(file, error); out << "a\nb\nc\n"; }
  auto changed = ChangedLines::fromUnifiedDiff("--- a/a.cu\n+++ b/a.cu\n@@ -2 +2 @@\n-x\n+b\n",
                                               root, "t.diff");
  ASSERT_TRUE(bool(changed));
  AnalysisResult result;
  result.findings = {finding(file, 1, "device-sync", Severity::Warning),
                     finding(file, 2, "device-sync", Severity::Warning)};
  SummaryCounts counts;
  ASSERT_FALSE(bool(applyReportPolicy(result, std::nullopt, registry(), &*changed, counts)));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location.line, 2u);
  EXPECT_EQ(counts.outsideDiff, 1u);
  llvm::sys::fs::remove_directories(root);
}

} // namespace
