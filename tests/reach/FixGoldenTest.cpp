// Golden fix files: analyzing testdata/fixes/<check-id>*.cu and applying every
// applicable fix-it must give <file>.fixed exactly.
#include "analyzer/driver/Analyzer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace streamlint {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Applies the applicable fixes of `file`'s findings; identical edits from
/// findings reported twice (templates, headers) count once.
std::string applyFixes(const AnalysisResult &result, const std::string &file,
                       std::string text) {
  std::vector<TextEdit> edits;
  for (const Finding &finding : result.findings)
    for (const FixIt &fix : finding.fixes)
      if (fix.applicable)
        for (const TextEdit &edit : fix.edits)
          if (edit.file == file)
            edits.push_back(edit);
  std::sort(edits.begin(), edits.end(), [](const TextEdit &a, const TextEdit &b) {
    return std::tie(b.offset, b.length, b.replacement) <
           std::tie(a.offset, a.length, a.replacement);
  });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const TextEdit &a, const TextEdit &b) {
                            return a.offset == b.offset && a.length == b.length &&
                                   a.replacement == b.replacement;
                          }),
              edits.end());
  for (const TextEdit &edit : edits) // back to front: offsets stay valid
    text.replace(edit.offset, edit.length, edit.replacement);
  return text;
}

TEST(FixGolden, ReachChecks) {
  if (!fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
    GTEST_SKIP() << "needs the CUDA toolkit headers";
  CheckRegistry registry;
  registerAllChecks(registry);
  unsigned files = 0;
  for (const auto &entry : fs::directory_iterator(STREAMLINT_TESTDATA "/fixes")) {
    std::string name = entry.path().filename().string();
    std::string check;
    for (const char *id : {"alloc-in-loop", "device-sync", "api-in-host-callback"})
      if (name.rfind(id, 0) == 0 && entry.path().extension() == ".cu")
        check = id;
    if (check.empty())
      continue;
    SCOPED_TRACE(name);
    ++files;
    std::string file = fs::canonical(entry.path()).string();
    CompileEntry compile{fs::path(file).parent_path().string(), file,
                         {"clang++", "-x", "cuda", "-c", file}};
    AnalyzerOptions options;
    options.checks = "-*," + check;
    options.jobs = 1;
    AnalysisResult result = analyzeEntries({compile}, options, registry);
    EXPECT_TRUE(result.problems.empty());
    EXPECT_EQ(applyFixes(result, file, readFile(file)), readFile(file + ".fixed"));
  }
  EXPECT_GE(files, 2u);
}

} // namespace
} // namespace streamlint
