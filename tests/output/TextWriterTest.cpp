#include "RichResult.h"

#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

using namespace streamlint::testing;

std::string render(const AnalysisResult &result, const OutputOptions &options,
                   SourceTextCache &sources) {
  std::string text;
  llvm::raw_string_ostream out(text);
  writeFindings(OutputFormat::Text, result, options, sources, out);
  return text;
}

struct SnippetCase {
  const char *name;
  const char *source;     // contents of /p/a.cu
  SourcePoint location;   // file filled in
  SourcePoint end;
  const char *expected;
};

const SnippetCase kSnippetCases[] = {
    {"single caret", "  foo();\n", {"", 1, 3}, {}, 
     "a.cu:1:3: warning: m [c]\n"
     "    1 |   foo();\n"
     "      |   ^\n"},
    {"range on the line", "  foo(a, b);\n", {"", 1, 3}, {"", 1, 12},
     "a.cu:1:3: warning: m [c]\n"
     "    1 |   foo(a, b);\n"
     "      |   ^~~~~~~~~~\n"},
    {"range past the line underlines to its end", "x = foo(a,\n  b);\n",
     {"", 1, 5}, {"", 2, 4},
     "a.cu:1:5: warning: m [c]\n"
     "    1 | x = foo(a,\n"
     "      |     ^~~~~~\n"},
    {"tab expands to the next stop", "\tfoo();\n", {"", 1, 2}, {"", 1, 7},
     "a.cu:1:2: warning: m [c]\n"
     "    1 |         foo();\n"
     "      |         ^~~~~~\n"},
    {"multi-byte characters take one column", "/* é→ */ foo();\n",
     {"", 1, 13}, {"", 1, 18},
     "a.cu:1:13: warning: m [c]\n"
     "    1 | /* é→ */ foo();\n"
     "      |          ^~~~~~\n"},
    {"wide line numbers widen the gutter", nullptr, {"", 12345, 1}, {},
     "a.cu:12345:1: warning: m [c]\n"
     " 12345 | x\n"
     "       | ^\n"},
    {"CRLF line endings", "a;\r\nfoo();\r\n", {"", 2, 1}, {"", 2, 3},
     "a.cu:2:1: warning: m [c]\n"
     "    2 | foo();\n"
     "      | ^~~\n"},
    {"line past the end of the file: no snippet", "x\n", {"", 5, 1}, {},
     "a.cu:5:1: warning: m [c]\n"},
};

class TextSnippetTest : public ::testing::TestWithParam<SnippetCase> {};

TEST_P(TextSnippetTest, RendersLikeClang) {
  const SnippetCase &c = GetParam();
  SourceTextCache sources;
  std::string source = c.source ? c.source : std::string(12344, '\n') + "x\n";
  sources.setContents("/p/a.cu", source);
  Finding f;
  f.checkId = "c";
  f.message = "m";
  f.location = c.location;
  f.location.file = "/p/a.cu";
  f.end = c.end;
  f.end.file = c.end.line ? "/p/a.cu" : "";
  AnalysisResult result;
  result.findings.push_back(f);
  OutputOptions options;
  options.baseDirectory = "/p";
  EXPECT_EQ(render(result, options, sources), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, TextSnippetTest, ::testing::ValuesIn(kSnippetCases),
                         [](const auto &info) {
                           std::string name;
                           for (const char *p = info.param.name; *p; ++p)
                             name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
                           return name;
                         });

TEST(TextWriterTest, RichResultInReportOrder) {
  SourceTextCache sources;
  AnalysisResult result = richResult(sources);
  EXPECT_EQ(
      render(result, richOptions(), sources),
      "src/kernels.cu:3:16: warning: synchronous \"cudaMemcpy\" in a "
      "stream-ordered function [confirmed: 1200 calls, 3.1 ms, 8.0 MiB] "
      "[sync-memcpy]\n"
      "    3 |   /* é → */ cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n"
      "      |             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
      "src/kernels.cu:3:16: note: use cudaMemcpyAsync\n"
      "fix-it:\"src/kernels.cu\":{3:16-3:26}:\"cudaMemcpyAsync\"\n"
      "src/kernels.cu:2:1: note: consider pinned memory (suggestion; --fix "
      "does not apply it)\n"
      "fix-it:\"src/kernels.cu\":{2:1-2:1}:\"// TODO: pin h\\n\"\n"
      "/opt/other lib/util.cuh:2:3: note: called from here\n"
      "    2 |   h();\n"
      "      |   ^\n"
      "/opt/other lib/util.cuh:2:3: note: 50% of lines, with: commas "
      "[streamlint-nolint]\n"
      "    2 |   h();\n"
      "      |   ^~~\n"
      "src/kernels.cu:4:3: warning: kernel launch on the legacy default "
      "stream [default-stream]\n"
      "    4 |   kernel<<<1, 1>>>(d);\n"
      "      |   ^~~~~~~~~~~~~~~~~~~\n"
      "src/broken.cu: error: translation unit analyzed partially after 1 "
      "error; findings may be missing\n");
}

TEST(TextWriterTest, ConfirmedFindingsFirstByHostTime) {
  AnalysisResult result;
  auto add = [&](unsigned line, std::optional<DynamicEvidence> d) {
    Finding f;
    f.checkId = "c";
    f.message = "at " + std::to_string(line);
    f.location = {"/nowhere/a.cu", line, 1};
    f.dynamic = d;
    result.findings.push_back(f);
  };
  auto evidence = [](DynamicStatus status, std::uint64_t calls, std::uint64_t misuses,
                     double hostTimeUs) {
    DynamicEvidence e;
    e.status = status;
    e.calls = calls;
    e.misuses = misuses;
    e.hostTimeUs = hostTimeUs;
    return e;
  };
  DynamicEvidence slow = evidence(DynamicStatus::Confirmed, 2, 2, 5000);
  DynamicEvidence fast = evidence(DynamicStatus::Confirmed, 9, 9, 40);
  DynamicEvidence refuted = evidence(DynamicStatus::Refuted, 7, 0, 99999);
  add(1, std::nullopt);
  add(2, fast);
  add(3, refuted);
  add(4, slow);
  SourceTextCache sources;
  EXPECT_EQ(render(result, OutputOptions(), sources),
            "/nowhere/a.cu:4:1: warning: at 4 [confirmed: 2 calls, 5.0 ms] [c]\n"
            "/nowhere/a.cu:2:1: warning: at 2 [confirmed: 9 calls, 40 us] [c]\n"
            "/nowhere/a.cu:1:1: warning: at 1 [c]\n"
            "/nowhere/a.cu:3:1: warning: at 3 [refuted: 7 calls, 100.0 ms] [c]\n");
}

TEST(TextWriterTest, ColorsOnlyWhenAsked) {
  SourceTextCache sources;
  sources.setContents("/p/a.cu", "foo();\n");
  AnalysisResult result;
  Finding f;
  f.checkId = "c";
  f.message = "m";
  f.location = {"/p/a.cu", 1, 1};
  f.related.push_back({{"/p/a.cu", 1, 1}, "n"});
  result.findings.push_back(f);
  OutputOptions options;
  EXPECT_EQ(render(result, options, sources).find('\033'), std::string::npos);
  options.color = true;
  std::string colored = render(result, options, sources);
  EXPECT_NE(colored.find("\033[0;1;35mwarning: "), std::string::npos) << colored;
  EXPECT_NE(colored.find("\033[0;1;36mnote: "), std::string::npos) << colored;
  EXPECT_NE(colored.find("\033[0;1;32m^"), std::string::npos) << colored;
}

TEST(TextWriterTest, UnreadableFileGetsNoSnippet) {
  AnalysisResult result;
  Finding f;
  f.checkId = "c";
  f.message = "m";
  f.location = {"/definitely/missing/file.cu", 7, 2};
  result.findings.push_back(f);
  SourceTextCache sources;
  EXPECT_EQ(render(result, OutputOptions(), sources),
            "/definitely/missing/file.cu:7:2: warning: m [c]\n");
}

} // namespace
} // namespace streamlint
