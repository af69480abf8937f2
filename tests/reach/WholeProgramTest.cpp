// The whole-program pass through the driver: output independent of -j and of
// the compile database's order; removed APIs still matched on a broken TU.
#include "analyzer/driver/Analyzer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace streamlint {
namespace {

namespace fs = std::filesystem;

bool toolkitAvailable() {
  return fs::exists("/usr/local/cuda/include/cuda_runtime.h");
}

std::vector<CompileEntry> entriesIn(const fs::path &path) {
  std::vector<CompileEntry> entries;
  std::vector<fs::path> files;
  if (fs::is_directory(path)) {
    for (const auto &entry : fs::directory_iterator(path))
      if (entry.path().extension() == ".cu")
        files.push_back(entry.path());
  } else {
    files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  for (const fs::path &file : files)
    entries.push_back({file.parent_path().string(), file.string(),
                       {"clang++", "-x", "cuda", "-std=c++17", "-c", file.string()}});
  return entries;
}

/// Everything a user sees of the findings, related locations included.
std::string render(const AnalysisResult &result) {
  std::string text;
  for (const Finding &f : result.findings) {
    text += f.location.file + ":" + std::to_string(f.location.line) + " " +
            severityName(f.severity) + " " + f.message + " [" + f.checkId + "]\n";
    for (const RelatedLocation &r : f.related)
      text += "  " + r.location.file + ":" + std::to_string(r.location.line) + " " +
              r.message + "\n";
  }
  return text;
}

AnalysisResult analyze(const std::vector<CompileEntry> &entries, unsigned jobs) {
  static const CheckRegistry registry = [] {
    CheckRegistry r;
    registerAllChecks(r);
    return r;
  }();
  AnalyzerOptions options;
  options.checks = "-*,device-sync,alloc-in-loop,api-in-host-callback";
  options.jobs = jobs;
  return analyzeEntries(entries, options, registry);
}

TEST(WholeProgram, DeterministicWhateverJobsAndOrder) {
  if (!toolkitAvailable())
    GTEST_SKIP() << "needs the CUDA toolkit headers";
  for (const char *name : {"device-sync-cross-tu", "alloc-in-loop-cross-tu",
                           "api-in-host-callback-cross-tu"}) {
    SCOPED_TRACE(name);
    std::vector<CompileEntry> entries =
        entriesIn(fs::path(STREAMLINT_TESTDATA) / "checks" / name);
    ASSERT_GE(entries.size(), 2u);
    std::string serial = render(analyze(entries, 1));
    EXPECT_NE(serial.find("through"), std::string::npos) << serial;
    std::reverse(entries.begin(), entries.end());
    EXPECT_EQ(render(analyze(entries, 2)), serial);
  }
}

TEST(WholeProgram, RemovedApiOnABrokenTranslationUnit) {
  if (!toolkitAvailable())
    GTEST_SKIP() << "needs the CUDA toolkit headers";
  AnalysisResult result =
      analyze(entriesIn(fs::path(STREAMLINT_TESTDATA) / "reach" / "removed-api.cu"), 1);
  ASSERT_EQ(result.problems.size(), 1u);
  EXPECT_TRUE(result.problems[0].analyzedPartially);
  ASSERT_EQ(result.findings.size(), 1u) << render(result);
  EXPECT_EQ(result.findings[0].location.line, 8u);
  EXPECT_EQ(result.findings[0].severity, Severity::Warning);
  EXPECT_EQ(result.findings[0].message.rfind("cudaThreadSynchronize ", 0), 0u)
      << result.findings[0].message;
}

} // namespace
} // namespace streamlint
