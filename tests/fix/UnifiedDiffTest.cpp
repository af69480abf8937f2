// The dry-run diff: exact text, so `patch -p1` and reviewers read it as diff -u.
#include "analyzer/fix/FixApplier.h"
#include "tests/fix/FixTestSupport.h"

namespace streamlint {
namespace {
using namespace streamlint::testing;

std::string numbered(int from, int to) {
  std::string text;
  for (int i = from; i <= to; ++i)
    text += "line" + std::to_string(i) + "\n";
  return text;
}

unsigned offsetOfLine(const std::string &text, int line) {
  size_t at = 0;
  for (int l = 1; l < line; ++l)
    at = text.find('\n', at) + 1;
  return unsigned(at);
}

std::string dryRun(TempProject &project, const std::string &name,
                   const std::string &contents, std::vector<TextEdit> edits) {
  std::string file = project.write(name, contents);
  for (auto &e : edits)
    e.file = file;
  FixReport report = applyFixes({findingWithFix("x", file, 1, edits)},
                                {project.root(), true});
  EXPECT_EQ(project.read(name), contents);
  return report.diff;
}

TEST(UnifiedDiff, OneHunkWithThreeLinesOfContext) {
  TempProject project;
  std::string text = numbered(1, 10);
  std::string diff = dryRun(project, "src/a.cu", text,
                            {edit("", offsetOfLine(text, 5), 5, "LINE5")});
  EXPECT_EQ(diff, "--- a/src/a.cu\n+++ b/src/a.cu\n"
                  "@@ -2,7 +2,7 @@\n"
                  " line2\n line3\n line4\n-line5\n+LINE5\n line6\n line7\n line8\n");
}

TEST(UnifiedDiff, DistantEditsMakeTwoHunksWithShiftedNewNumbers) {
  TempProject project;
  std::string text = numbered(1, 20);
  std::string diff = dryRun(
      project, "a.cu", text,
      {edit("", offsetOfLine(text, 2), 0, "added\n"),
       edit("", offsetOfLine(text, 18), 7, "")});
  EXPECT_EQ(diff, "--- a/a.cu\n+++ b/a.cu\n"
                  "@@ -1,5 +1,6 @@\n"
                  " line1\n-line2\n+added\n+line2\n line3\n line4\n line5\n"
                  "@@ -15,6 +16,5 @@\n"
                  " line15\n line16\n line17\n-line18\n line19\n line20\n");
}

TEST(UnifiedDiff, NearbyEditsShareAHunk) {
  TempProject project;
  std::string text = numbered(1, 12);
  std::string diff = dryRun(project, "a.cu", text,
                            {edit("", offsetOfLine(text, 3), 1, "L"),
                             edit("", offsetOfLine(text, 9), 1, "L")});
  // Lines 3 and 9: their contexts (4-6, 6-8) meet, so one hunk of 12 lines.
  EXPECT_EQ(diff.find("@@ -1,12 +1,12 @@\n"), diff.find("@@")) << diff;
  EXPECT_EQ(diff.find("@@", diff.find("@@") + 2), diff.rfind("@@")) << diff;
}

TEST(UnifiedDiff, MissingNewlineAtEndIsMarked) {
  TempProject project;
  std::string diff = dryRun(project, "a.cu", "one\ntwo", {edit("", 4, 3, "TWO")});
  EXPECT_EQ(diff, "--- a/a.cu\n+++ b/a.cu\n@@ -1,2 +1,2 @@\n one\n"
                  "-two\n\\ No newline at end of file\n"
                  "+TWO\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, AppendAtEndOfFile) {
  TempProject project;
  std::string diff = dryRun(project, "a.cu", "one\n", {edit("", 4, 0, "two\n")});
  EXPECT_EQ(diff, "--- a/a.cu\n+++ b/a.cu\n@@ -1,1 +1,2 @@\n one\n+two\n");
}

TEST(UnifiedDiff, TwoEditsOnOneLine) {
  TempProject project;
  std::string diff = dryRun(project, "a.cu", "f(a, b);\n",
                            {edit("", 0, 1, "g"), edit("", 6, 0, ", s")});
  EXPECT_EQ(diff, "--- a/a.cu\n+++ b/a.cu\n@@ -1,1 +1,1 @@\n-f(a, b);\n+g(a, b, s);\n");
}

} // namespace
} // namespace streamlint
