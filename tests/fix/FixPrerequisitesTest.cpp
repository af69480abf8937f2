// A fix that relies on another check's fix (FixIt::prerequisites, as
// device-sync's wait narrowed with default-stream's moves): settled against
// the findings reported, and applied by --fix with the other fix's edits or
// not at all.
#include "FixTestSupport.h"

#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/FixPrerequisites.h"

namespace streamlint::testing {
namespace {

// "move(d);\nwait();\n": the move inserts at 6, the wait replaces bytes 9-13.
const char *kSource = "move(d);\nwait();\n";

std::string absent(const FixPrerequisite &) { return "absent"; }

struct Program {
  TempProject project;
  std::string file = project.write("a.cu", kSource);
  TextEdit move = [&] {
    TextEdit e = edit(file, 6, 0, ", s");
    e.begin = {file, 1, 7}; // offset 6
    return e;
  }();
  Finding mover = findingWithFix("default-stream", file, 1, {move});
  Finding waiter = [&] {
    Finding f = findingWithFix("device-sync", file, 2, {edit(file, 9, 4, "narrow"), move});
    f.fixes.front().prerequisites.push_back({"default-stream", move, "the move at line 1"});
    return f;
  }();
};

TEST(FixPrerequisites, AppliedWithTheFixItReliesOnIdenticalEditsOnce) {
  Program p;
  std::vector<Finding> findings = {p.mover, p.waiter};
  settleFixPrerequisites(findings, absent);
  ASSERT_TRUE(findings[1].fixes.front().applicable) << findings[1].fixes.front().description;
  FixReport report = applyFixes(findings, {p.project.root(), false});
  EXPECT_EQ(report.appliedFixes, 2u);
  EXPECT_TRUE(report.skipped.empty());
  EXPECT_EQ(p.project.read("a.cu"), "move(d, s);\nnarrow();\n");
}

TEST(FixPrerequisites, RefusedWhenTheOtherFindingIsNotReported) {
  Program p;
  std::vector<Finding> findings = {p.waiter};
  settleFixPrerequisites(findings, [](const FixPrerequisite &prerequisite) {
    return prerequisite.checkId + " is not enabled in this run";
  });
  const FixIt &fix = findings[0].fixes.front();
  EXPECT_FALSE(fix.applicable);
  EXPECT_NE(fix.description.find("not applied by --fix: it relies on default-stream's fix of the "
                                 "move at line 1 (a.cu:1), and default-stream is not enabled in "
                                 "this run"),
            std::string::npos)
      << fix.description;
  FixReport report = applyFixes(findings, {p.project.root(), false});
  EXPECT_EQ(report.appliedFixes, 0u);
  EXPECT_EQ(p.project.read("a.cu"), kSource);
}

TEST(FixPrerequisites, RefusedWhenTheOtherFixIsASuggestionOrMakesMoreEdits) {
  Program p;
  Finding suggested = p.mover;
  suggested.fixes.front().applicable = false;
  suggested.fixes.front().description = "pass s; not applied by --fix: the callers decide";
  std::vector<Finding> findings = {suggested, p.waiter};
  settleFixPrerequisites(findings, absent);
  EXPECT_FALSE(findings[1].fixes.front().applicable);
  EXPECT_NE(findings[1].fixes.front().description.find(
                "which is a suggestion in this run: the callers decide"),
            std::string::npos)
      << findings[1].fixes.front().description;

  Program q;
  Finding withWait = q.mover;
  withWait.fixes.front().edits.push_back(edit(q.file, 8, 0, "\nsync(s);"));
  findings = {withWait, q.waiter};
  settleFixPrerequisites(findings, absent);
  EXPECT_FALSE(findings[1].fixes.front().applicable);
  EXPECT_NE(findings[1].fixes.front().description.find("also makes edits this fix does not carry"),
            std::string::npos);
}

// Also a fix never meets its own prerequisite, though it carries the edit.
TEST(FixPrerequisites, ARefusalReachesTheFixesThatRelyOnIt) {
  Program p;
  Finding second = findingWithFix("device-sync", p.file, 2, {edit(p.file, 15, 0, ";"), p.move,
                                                             edit(p.file, 9, 4, "narrow")});
  second.fixes.front().prerequisites.push_back(
      {"device-sync", edit(p.file, 9, 4, "narrow"), "the wait at line 2"});
  std::vector<Finding> findings = {second, p.waiter}; // the mover is absent
  settleFixPrerequisites(findings, absent);
  EXPECT_FALSE(findings[1].fixes.front().applicable);
  EXPECT_FALSE(findings[0].fixes.front().applicable) << findings[0].fixes.front().description;
}

TEST(FixPrerequisites, SkippedWholeWhenACarriedEditOverlapsAnEarlierFix) {
  // --fix takes an earlier fix that rewrites the moved call differently:
  // default-stream's move is skipped as overlapping, and so is the fix that
  // carries it, so the wait is never narrowed without the move.
  Program p;
  Finding other = findingWithFix("library-default-stream", p.file, 1, {edit(p.file, 6, 0, ", t")});
  other.location.column = 0; // first in finding order
  std::vector<Finding> findings = {other, p.mover, p.waiter};
  settleFixPrerequisites(findings, absent);
  ASSERT_TRUE(findings[2].fixes.front().applicable);
  FixReport report = applyFixes(findings, {p.project.root(), false});
  EXPECT_EQ(report.appliedFixes, 1u);
  EXPECT_EQ(report.skipped.size(), 2u);
  EXPECT_EQ(p.project.read("a.cu"), "move(d, t);\nwait();\n");
}

} // namespace
} // namespace streamlint::testing
