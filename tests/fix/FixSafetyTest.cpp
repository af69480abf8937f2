// --fix never corrupts: content hashes, changes between analysis and write,
// symbolic links (file and directory) and read-only files.
#include "analyzer/fix/ContentDigest.h"
#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/FixPlan.h"
#include "tests/fix/FixTestSupport.h"

#include <sys/stat.h>
#include <unistd.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

const std::string kSource = "k<<<1, 1>>>(d);\n";
const std::string kFixed = "k<<<1, 1, 0, s>>>(d);\n";

/// The fix default-stream makes for kSource, stamped with `analyzed`'s hash.
Finding streamFix(const std::string &file, const std::string &analyzed = kSource) {
  TextEdit e = edit(file, 8, 0, ", 0, s");
  e.begin = {file, 1, 9};
  e.fileDigest = contentDigest(analyzed);
  return findingWithFix("default-stream", file, 1, {e});
}

TEST(FixSafety, DigestIsSha256Hex) {
  EXPECT_EQ(contentDigest(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(FixSafety, AppliesWhenBytesMatchTheAnalyzedOnes) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  FixReport report = applyFixes({streamFix(file)}, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(project.read("a.cu"), kFixed);
}

// Same length, same line starts: only the hash tells the file changed.
TEST(FixSafety, FileEditedAfterAnalysisIsLeftAlone) {
  TempProject project;
  std::string file = project.write("a.cu", "q<<<1, 1>>>(d);\n");
  FixReport report = applyFixes({streamFix(file)}, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 0u);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].kind, SkipReason::Changed);
  EXPECT_NE(report.skipped[0].reason.find(file + " changed since it was analyzed"),
            std::string::npos) << report.skipped[0].reason;
  EXPECT_EQ(project.read("a.cu"), "q<<<1, 1>>>(d);\n");
}

// A run that already applied the fix: applying it again would give
// k<<<1, 1, 0, s, 0, s>>>(d).
TEST(FixSafety, SecondRunWithTheSameAnalysisDoesNotApplyTwice) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  std::vector<Finding> analysis = {streamFix(file)};
  EXPECT_EQ(applyFixes(analysis, {project.root(), false}).appliedFixes, 1u);
  FixReport again = applyFixes(analysis, {project.root(), false});
  EXPECT_EQ(again.appliedFixes, 0u);
  EXPECT_EQ(project.read("a.cu"), kFixed);
}

// The write re-reads the file under the directory lock: a change after the
// plan was made (an editor's save) is detected there.
TEST(FixSafety, ReplaceIfUnchangedDetectsALateChange) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  auto outcome = fix::replaceIfUnchanged(file, "something else\n", kFixed);
  ASSERT_TRUE(bool(outcome));
  EXPECT_EQ(*outcome, fix::ReplaceOutcome::Changed);
  EXPECT_EQ(project.read("a.cu"), kSource);
  outcome = fix::replaceIfUnchanged(file, kSource, kFixed);
  ASSERT_TRUE(bool(outcome));
  EXPECT_EQ(*outcome, fix::ReplaceOutcome::Replaced);
  EXPECT_EQ(project.read("a.cu"), kFixed);
}

TEST(FixSafety, SymlinkedSourceReplacesTheTargetAndKeepsTheLink) {
  TempProject project;
  std::string real = project.write("vendor/real.cu", kSource);
  std::string link = project.path("src/a.cu");
  llvm::sys::fs::create_directories(project.path("src"));
  ASSERT_EQ(::symlink("../vendor/real.cu", link.c_str()), 0);
  FixReport report = applyFixes({streamFix(link)}, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(project.read("vendor/real.cu"), kFixed);
  struct stat info;
  ASSERT_EQ(::lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode)) << "the link was replaced by a file";
  EXPECT_EQ(project.read("src/a.cu"), kFixed);
  EXPECT_EQ(report.changedFiles, std::vector<std::string>{link});
}

// Bazel's execroot: the project root holds links to a tree elsewhere.
TEST(FixSafety, LinkInsideTheRootToAFileOutsideIsFollowed) {
  TempProject project, workspace;
  workspace.write("a.cu", kSource);
  std::string link = project.path("a.cu");
  ASSERT_EQ(::symlink(workspace.path("a.cu").c_str(), link.c_str()), 0);
  FixReport report = applyFixes({streamFix(link)}, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(workspace.read("a.cu"), kFixed);
}

TEST(FixSafety, SymlinkedDirectory) {
  TempProject project;
  project.write("real/a.cu", kSource);
  ASSERT_EQ(::symlink("real", project.path("linked").c_str()), 0);
  std::string viaLink = project.path("linked/a.cu");
  FixReport report = applyFixes({streamFix(viaLink)}, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(project.read("real/a.cu"), kFixed);
  struct stat info;
  ASSERT_EQ(::lstat(project.path("linked").c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
}

// One file named two ways (through a link and directly) is edited once.
TEST(FixSafety, OneFileReachedTwoWaysIsEditedOnce) {
  TempProject project;
  std::string real = project.write("real/a.cu", kSource);
  ASSERT_EQ(::symlink("real", project.path("linked").c_str()), 0);
  FixReport report = applyFixes(
      {streamFix(real), streamFix(project.path("linked/a.cu"))},
      {project.root(), false});
  EXPECT_EQ(project.read("real/a.cu"), kFixed);
  EXPECT_EQ(report.changedFiles.size(), 1u);
}

// Root can write anything: the mode bits decide, not whether a write works.
TEST(FixSafety, ReadOnlyFileIsLeftAloneAndReported) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
  FixReport report = applyFixes({streamFix(file)}, {project.root(), false});
  ::chmod(file.c_str(), 0644);
  EXPECT_EQ(report.appliedFixes, 0u);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].kind, SkipReason::ReadOnly);
  EXPECT_NE(report.skipped[0].reason.find("read-only (mode 0444)"), std::string::npos)
      << report.skipped[0].reason;
  EXPECT_EQ(project.read("a.cu"), kSource);
}

TEST(FixSafety, ReadOnlyTargetOfAWritableLookingLink) {
  TempProject project;
  std::string real = project.write("real.cu", kSource);
  ASSERT_EQ(::chmod(real.c_str(), 0440), 0);
  ASSERT_EQ(::symlink("real.cu", project.path("a.cu").c_str()), 0);
  FixReport report =
      applyFixes({streamFix(project.path("a.cu"))}, {project.root(), false});
  ::chmod(real.c_str(), 0644);
  EXPECT_EQ(report.appliedFixes, 0u);
  EXPECT_EQ(project.read("real.cu"), kSource);
}

TEST(FixSafety, SummaryCountsSkipsByReason) {
  FixReport report;
  report.appliedFixes = 1;
  report.changedFiles = {"/p/a.cu"};
  report.skipped.push_back({"a", {"/p/b.cu", 1, 1}, "d", "x", SkipReason::Changed});
  report.skipped.push_back({"a", {"/p/c.cu", 1, 1}, "d", "y", SkipReason::ReadOnly});
  report.skipped.push_back({"a", {"/p/d.cu", 1, 1}, "d", "z", SkipReason::ReadOnly});
  std::string text;
  llvm::raw_string_ostream out(text);
  printFixReport(report, out);
  EXPECT_NE(text.find("applied 1 fix(es) in 1 file(s); 3 skipped "
                      "(1 changed since analysis, 2 read-only)"),
            std::string::npos) << text;
}

} // namespace
} // namespace streamlint
