#include "analyzer/support/SourceTextCache.h"
#include "analyzer/suppress/Nolint.h"
#include "analyzer/suppress/Suppressions.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

struct ListCase {
  const char *list, *check;
  bool matches;
};

TEST(NolintTest, CheckListMatching) {
  const ListCase cases[] = {
      {"default-stream", "default-stream", true},
      {"sync-memcpy", "default-stream", false},
      {"sync-memcpy,default-stream", "default-stream", true},
      {" sync-memcpy , default-stream ", "default-stream", true},
      {"default-*", "default-stream", true},
      {"*-stream", "default-stream", true},
      {"*", "default-stream", true},
      {"de*st*m", "default-stream", true},
      {"default", "default-stream", false},
      {"streamlint-default-stream", "default-stream", true},
      {"streamlint-*", "default-stream", true},
      {"streamlint-*", "streamlint-nolint", true},
      {"bugprone-*", "default-stream", false},
      {"*,-default-stream", "default-stream", false},
      {"-default-stream,*", "default-stream", true}, // last match wins
      {"", "default-stream", false},
  };
  for (const ListCase &c : cases)
    EXPECT_EQ(checkListMatches(c.list, c.check), c.matches)
        << "'" << c.list << "' vs " << c.check;
}

TEST(NolintTest, FindsDirectivesInALine) {
  using Kind = NolintDirective::Kind;
  auto d = findNolintDirectives("f(); // NOLINT(a, b) NOLINTNEXTLINE", 4);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].kind, Kind::SameLine);
  EXPECT_EQ(d[0].column, 9u);
  EXPECT_EQ(d[0].checks, std::optional<std::string>("a,b"));
  EXPECT_EQ(d[1].kind, Kind::NextLine);
  EXPECT_FALSE(d[1].checks);
  // Not directives: other words containing NOLINT.
  EXPECT_TRUE(findNolintDirectives("// MY_NOLINT NOLINTED", 1).empty());
  // An unclosed list covers every check, as in clang-tidy.
  auto open = findNolintDirectives("// NOLINT(a", 1);
  ASSERT_EQ(open.size(), 1u);
  EXPECT_FALSE(open[0].checks);
  EXPECT_EQ(findNolintDirectives("/* NOLINTBEGIN() */", 1)[0].checks,
            std::optional<std::string>(""));
}

struct SuppressCase {
  const char *name;
  const char *source;
  unsigned line;       // the finding's caret line
  const char *check;
  bool suppressed;
};

const SuppressCase kCases[] = {
    {"NOLINT same line", "f(); // NOLINT\n", 1, "default-stream", true},
    {"NOLINT other line", "f(); // NOLINT\ng();\n", 2, "default-stream", false},
    {"NOLINT listed check", "f(); // NOLINT(default-stream)\n", 1, "default-stream", true},
    {"NOLINT other check", "f(); // NOLINT(sync-memcpy)\n", 1, "default-stream", false},
    {"NOLINT glob", "f(); // NOLINT(default-*)\n", 1, "default-stream", true},
    {"NOLINT prefixed id", "f(); // NOLINT(streamlint-default-stream)\n", 1,
     "default-stream", true},
    {"NOLINT block comment", "f(); /* NOLINT */\n", 1, "default-stream", true},
    {"NOLINT empty list", "f(); // NOLINT()\n", 1, "default-stream", false},
    {"NEXTLINE", "// NOLINTNEXTLINE\nf();\n", 2, "default-stream", true},
    {"NEXTLINE not its own line", "f(); // NOLINTNEXTLINE\n", 1, "default-stream", false},
    {"NEXTLINE two below", "// NOLINTNEXTLINE\n\nf();\n", 3, "default-stream", false},
    {"NEXTLINE list", "// NOLINTNEXTLINE(sync-memcpy, default-stream)\nf();\n", 2,
     "default-stream", true},
    {"NEXTLINE other", "// NOLINTNEXTLINE(sync-memcpy)\nf();\n", 2, "default-stream", false},
    {"BEGIN/END inside", "// NOLINTBEGIN\na;\nf();\n// NOLINTEND\n", 3, "default-stream", true},
    {"BEGIN/END after", "// NOLINTBEGIN\n// NOLINTEND\nf();\n", 3, "default-stream", false},
    {"BEGIN/END list", "// NOLINTBEGIN(default-*)\nf();\n// NOLINTEND(default-*)\n", 2,
     "default-stream", true},
    {"BEGIN/END other list", "// NOLINTBEGIN(sync-*)\nf();\n// NOLINTEND(sync-*)\n", 2,
     "default-stream", false},
    {"BEGIN without END hides nothing", "// NOLINTBEGIN\nf();\n", 2, "default-stream", false},
    {"END with another list does not close", "// NOLINTBEGIN(a)\nf();\n// NOLINTEND(b)\n", 2,
     "a", false},
    {"nested blocks", "// NOLINTBEGIN(a)\n// NOLINTBEGIN(b)\n// NOLINTEND(b)\nf();\n// NOLINTEND(a)\n",
     4, "a", true},
    {"CRLF", "// NOLINTNEXTLINE\r\nf();\r\n", 2, "default-stream", true},
};

class SuppressionTest : public ::testing::TestWithParam<SuppressCase> {};

TEST_P(SuppressionTest, Applies) {
  const SuppressCase &c = GetParam();
  SourceTextCache sources;
  sources.setContents("/p/a.cu", c.source);
  Finding f;
  f.checkId = c.check;
  f.location = {"/p/a.cu", c.line, 1};
  std::vector<Finding> findings{f};
  removeSuppressedFindings(findings, sources);
  bool kept = std::any_of(findings.begin(), findings.end(),
                          [&](const Finding &g) { return g.checkId == c.check; });
  EXPECT_EQ(!kept, c.suppressed);
}

INSTANTIATE_TEST_SUITE_P(Cases, SuppressionTest, ::testing::ValuesIn(kCases),
                         [](const auto &info) {
                           std::string name;
                           for (const char *p = info.param.name; *p; ++p)
                             name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
                           return name;
                         });

TEST(SuppressionTest, UnmatchedCommentsBecomeFindings) {
  SourceTextCache sources;
  sources.setContents("/p/a.cu",
                      "// NOLINTEND(x)\n"
                      "f();\n"
                      "  // NOLINTBEGIN(y)\n");
  Finding f;
  f.checkId = "y";
  f.location = {"/p/a.cu", 2, 1};
  std::vector<Finding> findings{f};
  removeSuppressedFindings(findings, sources);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].checkId, kNolintCheckId);
  EXPECT_EQ(findings[0].location.line, 1u);
  EXPECT_EQ(findings[0].location.column, 4u);
  EXPECT_NE(findings[0].message.find("'NOLINTEND'"), std::string::npos);
  EXPECT_EQ(findings[1].checkId, "y");
  EXPECT_EQ(findings[2].checkId, kNolintCheckId);
  EXPECT_EQ(findings[2].location.line, 3u);
  EXPECT_EQ(findings[2].location.column, 6u);
  EXPECT_NE(findings[2].message.find("'NOLINTBEGIN'"), std::string::npos);
  EXPECT_EQ(findings[2].severity, Severity::Warning);
}

TEST(SuppressionTest, UnreadableFilesKeepTheirFindings) {
  SourceTextCache sources;
  Finding f;
  f.checkId = "c";
  f.location = {"/definitely/missing.cu", 3, 1};
  std::vector<Finding> findings{f};
  removeSuppressedFindings(findings, sources);
  EXPECT_EQ(findings.size(), 1u);
}

} // namespace
} // namespace streamlint
