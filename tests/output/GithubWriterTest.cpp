#include "RichResult.h"

#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

using namespace streamlint::testing;

std::string renderGithub(const AnalysisResult &result,
                         const OutputOptions &options, SourceTextCache &sources) {
  std::string text;
  llvm::raw_string_ostream out(text);
  writeFindings(OutputFormat::Github, result, options, sources, out);
  return text;
}

TEST(GithubWriterTest, AnnotationsEscapedAndRelative) {
  SourceTextCache sources;
  EXPECT_EQ(
      renderGithub(richResult(sources), richOptions(), sources),
      "::error file=src/broken.cu,title=streamlint%3A analysis incomplete::"
      "translation unit analyzed partially%0A/work/proj/src/broken.cu:3:1: "
      "error: unknown type name 'texture'\n"
      "::warning file=src/kernels.cu,line=3,col=13,endLine=3,endColumn=56,"
      "title=streamlint%3A sync-memcpy::synchronous \"cudaMemcpy\" in a "
      "stream-ordered function [confirmed: 1200 calls, 3.1 ms, 8.0 MiB]%0A"
      "note: /opt/other lib/util.cuh:2: called from here%0Afix: use "
      "cudaMemcpyAsync%0Afix: consider pinned memory\n"
      "::notice file=/opt/other lib/util.cuh,line=2,col=3,endLine=2,"
      "endColumn=5,title=streamlint%3A streamlint-nolint::50%25 of%0Alines, "
      "with: commas\n"
      "::warning file=src/kernels.cu,line=4,col=3,endLine=4,endColumn=21,"
      "title=streamlint%3A default-stream::kernel launch on the legacy "
      "default stream\n");
}

TEST(GithubWriterTest, PropertyEscapesCommaColonPercentNewline) {
  SourceTextCache sources;
  AnalysisResult result;
  Finding f;
  f.checkId = "c";
  f.message = "m\r";
  f.location = {"/p/we,ird:50%\nname.cu", 1, 1};
  result.findings.push_back(f);
  OutputOptions options;
  EXPECT_EQ(renderGithub(result, options, sources),
            "::warning file=/p/we%2Cird%3A50%25%0Aname.cu,line=1,col=1,"
            "title=streamlint%3A c::m%0D\n");
}

struct CapCase {
  unsigned warnings, notes, errors;
  unsigned expectedAnnotations, expectedSkipped;
};

class GithubCapTest : public ::testing::TestWithParam<CapCase> {};

TEST_P(GithubCapTest, TenPerLevelAndOverflowCounted) {
  const CapCase &c = GetParam();
  AnalysisResult result;
  auto add = [&](Severity severity, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      Finding f;
      f.checkId = "c";
      f.severity = severity;
      f.location = {"/p/a.cu", static_cast<unsigned>(result.findings.size()) + 1, 1};
      f.fingerprint = std::to_string(result.findings.size());
      result.findings.push_back(f);
    }
  };
  add(Severity::Warning, c.warnings);
  add(Severity::Note, c.notes);
  add(Severity::Error, c.errors);
  SourceTextCache sources;
  std::string text = renderGithub(result, OutputOptions(), sources);
  unsigned annotations = 0;
  for (std::size_t pos = 0; (pos = text.find("\n::", pos)) != std::string::npos; ++pos)
    ++annotations;
  annotations += text.rfind("::", 0) == 0;
  EXPECT_EQ(annotations, c.expectedAnnotations) << text;
  std::string overflow = "streamlint: " + std::to_string(c.expectedSkipped) +
                         (c.expectedSkipped == 1 ? " more finding" : " more findings") +
                         " not annotated";
  if (c.expectedSkipped)
    EXPECT_NE(text.find(overflow), std::string::npos) << text;
  else
    EXPECT_EQ(text.find("not annotated"), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(Caps, GithubCapTest,
                         ::testing::Values(CapCase{3, 0, 0, 3, 0},
                                           CapCase{10, 0, 0, 10, 0},
                                           CapCase{11, 0, 0, 10, 1},
                                           CapCase{25, 12, 4, 24, 17}));

TEST(GithubWriterTest, StepSummaryAppendsAllFindings) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("summary", "md", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream pre(path, ec);
    pre << "earlier step\n";
  }
  SourceTextCache sources;
  OutputOptions options = richOptions();
  options.githubStepSummaryPath = std::string(path);
  AnalysisResult result = richResult(sources);
  result.findings[1].message = "uses a|pipe and __host__ <T>";
  renderGithub(result, options, sources);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  std::string summary = (*buffer)->getBuffer().str();
  llvm::sys::fs::remove(path);
  EXPECT_EQ(summary.rfind("earlier step\n## streamlint: 3 findings\n", 0), 0u)
      << summary;
  EXPECT_NE(summary.find("| Severity | Check | Location | Message |"),
            std::string::npos);
  EXPECT_NE(summary.find("| warning | default-stream | src/kernels.cu:4:3 | "
                         "uses a\\|pipe and \\_\\_host\\_\\_ \\<T\\> |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("50% of<br>lines"), std::string::npos) << summary;
  EXPECT_NE(summary.find("src/broken.cu (partially analyzed)"), std::string::npos)
      << summary;
}

} // namespace
} // namespace streamlint
