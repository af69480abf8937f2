// applyFixes(): conflicts, duplicates, project boundaries, stale files,
// file modes and atomic replacement.
#include "analyzer/fix/FixApplier.h"
#include "tests/fix/FixTestSupport.h"

#include <sys/stat.h>
#include <unistd.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

const std::string kSource = "cudaMemcpy(a, b, n, kind);\ncudaDeviceSynchronize();\n";

TEST(ApplyFixes, AppliesNonOverlappingEditsInOneFile) {
  TempProject project;
  std::string file = project.write("src/a.cu", kSource);
  std::vector<Finding> findings = {
      findingWithFix("x", file, 1, {edit(file, 0, 10, "cudaMemcpyAsync")}),
      findingWithFix("y", file, 1, {edit(file, 24, 0, ", stream")}),
      findingWithFix("z", file, 2, {edit(file, 27, 21, "cudaStreamSynchronize")}),
  };
  FixReport report = applyFixes(findings, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 3u);
  EXPECT_TRUE(report.skipped.empty());
  EXPECT_EQ(project.read("src/a.cu"),
            "cudaMemcpyAsync(a, b, n, kind, stream);\ncudaStreamSynchronize();\n");
  EXPECT_EQ(report.changedFiles, std::vector<std::string>{file});
}

struct OverlapCase {
  const char *name;
  TextEdit first, second; // offsets into kSource; file filled in by the test
  bool conflict;
};

class Overlap : public ::testing::TestWithParam<OverlapCase> {};

TEST_P(Overlap, LaterFixSkippedWhole) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  TextEdit first = GetParam().first, second = GetParam().second;
  first.file = second.file = file;
  // The second fix also edits line 2: skipping it must skip that edit too.
  std::vector<Finding> findings = {
      findingWithFix("first-check", file, 1, {first}),
      findingWithFix("second-check", file, 1, {second, edit(file, 27, 4, "CUDA")}),
  };
  FixReport report = applyFixes(findings, {project.root(), false});
  if (!GetParam().conflict) {
    EXPECT_TRUE(report.skipped.empty());
    return;
  }
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].checkId, "second-check");
  EXPECT_NE(report.skipped[0].reason.find("overlaps the fix of [first-check]"),
            std::string::npos) << report.skipped[0].reason;
  EXPECT_NE(report.skipped[0].reason.find(file + " bytes"), std::string::npos);
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(project.read("a.cu").find("CUDADeviceSynchronize"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Overlap,
    ::testing::Values(
        OverlapCase{"SameRangeDifferentText", edit("", 0, 10, "A"), edit("", 0, 10, "B"), true},
        OverlapCase{"PartialOverlap", edit("", 0, 10, "A"), edit("", 5, 10, "B"), true},
        OverlapCase{"Contained", edit("", 0, 20, "A"), edit("", 5, 2, "B"), true},
        OverlapCase{"InsertionInside", edit("", 0, 10, "A"), edit("", 4, 0, "B"), true},
        OverlapCase{"TwoInsertionsSameOffset", edit("", 3, 0, "A"), edit("", 3, 0, "B"), true},
        OverlapCase{"Adjacent", edit("", 0, 10, "A"), edit("", 10, 5, "B"), false},
        OverlapCase{"InsertionAtEnd", edit("", 0, 10, "A"), edit("", 10, 0, "B"), false},
        OverlapCase{"IdenticalIsNotAConflict", edit("", 0, 10, "A"), edit("", 0, 10, "A"), false}),
    [](const auto &info) { return std::string(info.param.name); });

// A group of moves that must apply all or none (docs/fixes.md rule 5): each
// move's fix carries every edit of the group. Another check's fix that
// overlaps one edit of the group skips the whole group when it comes first,
// and is itself skipped when the group comes first: the file never gets
// part of a group.
TEST(ApplyFixes, OverlapWithOneEditSkipsTheWholeGroup) {
  for (bool otherFirst : {true, false}) {
    TempProject project;
    std::string file = project.write("a.cu", kSource);
    TextEdit moveOne = edit(file, 24, 0, ", s"), moveTwo = edit(file, 27, 21, "cudaStreamSynchronize");
    Finding other = findingWithFix("other-check", file, 2, {edit(file, 27, 4, "CUDA")});
    std::vector<Finding> findings = {
        findingWithFix("default-stream", file, 1, {moveOne, moveTwo}),
        findingWithFix("default-stream", file, 2, {moveTwo, moveOne})};
    findings.insert(otherFirst ? findings.begin() : findings.end(), other);
    FixReport report = applyFixes(findings, {project.root(), false});
    SCOPED_TRACE(otherFirst ? "the other fix first" : "the group first");
    if (otherFirst) {
      EXPECT_EQ(report.appliedFixes, 1u);
      ASSERT_EQ(report.skipped.size(), 2u);
      for (const auto &skipped : report.skipped)
        EXPECT_EQ(skipped.checkId, "default-stream");
      EXPECT_EQ(project.read("a.cu"), "cudaMemcpy(a, b, n, kind);\nCUDADeviceSynchronize();\n");
    } else {
      EXPECT_EQ(report.appliedFixes, 2u);
      ASSERT_EQ(report.skipped.size(), 1u);
      EXPECT_EQ(report.skipped[0].checkId, "other-check");
      EXPECT_EQ(project.read("a.cu"),
                "cudaMemcpy(a, b, n, kind, s);\ncudaStreamSynchronize();\n");
    }
  }
}

TEST(ApplyFixes, DuplicateEditsFromTwoTranslationUnitsApplyOnce) {
  TempProject project;
  std::string header = project.write("inc/h.cuh", "cudaMemcpy(a, b, n, kind);\n");
  // The same header finding reported from a.cu's and b.cu's TUs.
  Finding fromA = findingWithFix("x", header, 1, {edit(header, 0, 10, "cudaMemcpyAsync")});
  Finding fromB = fromA;
  fromB.message = "seen from b.cu";
  FixReport report = applyFixes({fromA, fromB}, {project.root(), false});
  EXPECT_TRUE(report.skipped.empty());
  EXPECT_EQ(report.appliedFixes, 2u);
  EXPECT_EQ(project.read("inc/h.cuh"), "cudaMemcpyAsync(a, b, n, kind);\n");
}

TEST(ApplyFixes, OutsideRootAndNotApplicableAreNotTouched) {
  TempProject project, elsewhere;
  std::string inside = project.write("a.cu", kSource);
  std::string outside = elsewhere.write("b.cu", kSource);
  std::vector<Finding> findings = {
      findingWithFix("out", outside, 1, {edit(outside, 0, 4, "XXXX")}),
      findingWithFix("advice", inside, 1, {edit(inside, 0, 4, "YYYY")},
                     /*applicable=*/false),
      // One edit outside the root makes the whole fix skipped.
      findingWithFix("mixed", inside, 2, {edit(inside, 27, 4, "ZZZZ"),
                                          edit(outside, 27, 4, "ZZZZ")}),
  };
  FixReport report = applyFixes(findings, {project.root(), false});
  EXPECT_EQ(report.appliedFixes, 0u);
  ASSERT_EQ(report.skipped.size(), 2u);
  EXPECT_NE(report.skipped[0].reason.find("outside the project root"), std::string::npos);
  EXPECT_EQ(project.read("a.cu"), kSource);
  EXPECT_EQ(elsewhere.read("b.cu"), kSource);
}

TEST(ApplyFixes, ToolkitHeadersAreNeverEdited) {
  std::string header = "/usr/local/cuda/include/cuda_runtime_api.h";
  FixReport report = applyFixes(
      {findingWithFix("x", header, 1, {edit(header, 0, 1, "X")})}, {"/", false});
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_NE(report.skipped[0].reason.find("system or CUDA toolkit header"),
            std::string::npos);
  EXPECT_EQ(report.appliedFixes, 0u);
}

TEST(ApplyFixes, StaleFileIsSkipped) {
  TempProject project;
  std::string file = project.write("a.cu", "short\n");
  TextEdit pastEnd = edit(file, 4, 10, "X");
  TextEdit moved = edit(file, 2, 1, "X");
  moved.begin = {file, 2, 1}; // line 2 does not start at byte 2
  FixReport report = applyFixes({findingWithFix("a", file, 1, {pastEnd}),
                                 findingWithFix("b", file, 1, {moved})},
                                {project.root(), false});
  ASSERT_EQ(report.skipped.size(), 2u);
  EXPECT_NE(report.skipped[0].reason.find("past the end"), std::string::npos);
  EXPECT_NE(report.skipped[1].reason.find("changed since the analysis"), std::string::npos);
  EXPECT_EQ(project.read("a.cu"), "short\n");
}

TEST(ApplyFixes, FileModeIsPreserved) {
  TempProject project;
  std::string file = project.write("run.sh", "echo hi\n");
  ASSERT_EQ(::chmod(file.c_str(), 0751), 0);
  applyFixes({findingWithFix("x", file, 1, {edit(file, 5, 2, "bye")})},
             {project.root(), false});
  struct stat st;
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
  EXPECT_EQ(project.read("run.sh"), "echo bye\n");
}

TEST(ApplyFixes, FailedWriteLeavesOriginalAndReports) {
  TempProject project;
  // A 250-byte name is valid, but the sibling temporary's name is too long:
  // creating it fails for every user, root included.
  std::string name(250, 'n');
  std::string file = project.write(name, kSource);
  std::string other = project.write("ok.cu", kSource);
  FixReport report = applyFixes(
      {findingWithFix("x", file, 1, {edit(file, 0, 4, "XXXX")}),
       findingWithFix("y", other, 1, {edit(other, 0, 4, "YYYY")})},
      {project.root(), false});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].find(file + ": cannot create a temporary file"),
            std::string::npos) << report.errors[0];
  EXPECT_EQ(project.read(name), kSource);
  EXPECT_EQ(project.read("ok.cu").substr(0, 4), "YYYY");
  EXPECT_EQ(report.appliedFixes, 1u);
  std::error_code ec;
  unsigned entries = 0;
  for (llvm::sys::fs::directory_iterator it(project.root(), ec), end;
       !ec && it != end; it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 2u); // no temporary left behind
}

TEST(ApplyFixes, UnwritableDirectoryLeavesOriginal) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root ignores directory permissions";
  TempProject project;
  std::string file = project.write("ro/a.cu", kSource);
  ASSERT_EQ(::chmod(project.path("ro").c_str(), 0555), 0);
  FixReport report = applyFixes(
      {findingWithFix("x", file, 1, {edit(file, 0, 4, "XXXX")})},
      {project.root(), false});
  ::chmod(project.path("ro").c_str(), 0755);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.appliedFixes, 0u);
  EXPECT_EQ(project.read("ro/a.cu"), kSource);
}

TEST(ApplyFixes, DryRunChangesNothing) {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  FixReport report = applyFixes(
      {findingWithFix("x", file, 1, {edit(file, 0, 10, "cudaMemcpyAsync")})},
      {project.root(), true});
  EXPECT_EQ(project.read("a.cu"), kSource);
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_NE(report.diff.find("+cudaMemcpyAsync(a, b, n, kind);"), std::string::npos);
}

TEST(PrintFixReport, NamesSkippedFixesAndCounts) {
  FixReport report;
  report.appliedFixes = 2;
  report.changedFiles = {"/p/a.cu"};
  report.skipped.push_back({"default-stream", {"/p/a.cu", 3, 5}, "d", "why"});
  std::string text;
  llvm::raw_string_ostream out(text);
  printFixReport(report, out);
  EXPECT_EQ(text, "streamlint: fix not applied for [default-stream] at /p/a.cu:3:5: why\n"
                  "streamlint: applied 2 fix(es) in 1 file(s); 1 skipped (1 conflicting)\n");
}

} // namespace
} // namespace streamlint
