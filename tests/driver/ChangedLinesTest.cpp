// Changed-lines runs (--diff-file, --diff-base): which lines a unified diff
// touches, and which findings lie on them.
#include "analyzer/driver/ChangedLines.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace streamlint;

namespace {

class ChangedLinesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("changed-lines", root_));
    for (const char *file : {"src/a.cu", "src/b.cu", "c.cu"}) {
      llvm::SmallString<256> path(root_);
      llvm::sys::path::append(path, file);
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
      std::error_code error;
      llvm::raw_fd_ostream out(path, error);
      for (int line = 1; line <= 40; ++line)
        out << "line " << line << "\n";
    }
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root_); }

  Finding at(const char *file, unsigned line, unsigned endLine = 0) const {
    Finding finding;
    llvm::SmallString<256> path(root_);
    llvm::sys::path::append(path, file);
    finding.location = {std::string(path), line, 1};
    finding.end = {std::string(path), endLine, 1};
    return finding;
  }

  llvm::SmallString<256> root_;
};

// `git diff` with context: only '+' lines count, context lines do not.
const char *const kGitDiff = R"(diff --git a/src/a.cu b/src/a.cu
index 1111111..2222222 100644
--- a/src/a.cu
+++ b/src/a.cu
@@ -3,6 +3,7 @@ void f()
 line 3
 line 4
-old 5
+line 5
+line 6
 line 7
 line 8
 line 9
@@ -20,0 +22,1 @@
+line 22
diff --git a/gone.cu b/gone.cu
deleted file mode 100644
--- a/gone.cu
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/c.cu b/c.cu
new file mode 100644
--- /dev/null
+++ b/c.cu
@@ -0,0 +1,2 @@
+line 1
+line 2
\ No newline at end of file
)";

TEST_F(ChangedLinesTest, AddedLinesOfAGitDiffWithContext) {
  auto changed = ChangedLines::fromUnifiedDiff(kGitDiff, root_, "test.diff");
  ASSERT_TRUE(bool(changed)) << llvm::toString(changed.takeError());
  EXPECT_EQ(changed->fileCount(), 2u); // a.cu and c.cu; the deleted file adds nothing
  EXPECT_FALSE(changed->touches(at("src/a.cu", 4)));  // context
  EXPECT_TRUE(changed->touches(at("src/a.cu", 5)));
  EXPECT_TRUE(changed->touches(at("src/a.cu", 6)));
  EXPECT_FALSE(changed->touches(at("src/a.cu", 7)));  // context
  EXPECT_TRUE(changed->touches(at("src/a.cu", 22)));
  EXPECT_FALSE(changed->touches(at("src/a.cu", 21)));
  EXPECT_TRUE(changed->touches(at("c.cu", 2)));
  EXPECT_FALSE(changed->touches(at("src/b.cu", 5))); // not in the diff
}

TEST_F(ChangedLinesTest, AFindingSpanningLinesTouchesAChangedOne) {
  auto changed = ChangedLines::fromUnifiedDiff(kGitDiff, root_, "test.diff");
  ASSERT_TRUE(bool(changed)) << llvm::toString(changed.takeError());
  EXPECT_TRUE(changed->touches(at("src/a.cu", 20, 23)));
  EXPECT_FALSE(changed->touches(at("src/a.cu", 10, 21)));
}

TEST_F(ChangedLinesTest, APathWithoutPrefixIsKept) {
  // git diff --no-prefix, or diff -u with timestamps after a tab.
  const char *diff = "--- src/b.cu\t2026-01-01 00:00:00\n"
                     "+++ src/b.cu\t2026-01-02 00:00:00\n"
                     "@@ -9 +9 @@\n-old\n+line 9\n";
  auto changed = ChangedLines::fromUnifiedDiff(diff, root_, "test.diff");
  ASSERT_TRUE(bool(changed)) << llvm::toString(changed.takeError());
  EXPECT_TRUE(changed->touches(at("src/b.cu", 9)));
  EXPECT_FALSE(changed->touches(at("src/b.cu", 10)));
}

TEST_F(ChangedLinesTest, ABrokenDiffIsAnErrorNamingIt) {
  for (const char *diff : {"--- a/x\n+++ b/src/a.cu\n@@ -1 +1,3 @@\n+one\n",
                           "--- a/x\n+++ b/src/a.cu\n@@ nonsense @@\n",
                           "@@ -1 +1 @@\n+x\n",
                           "--- a/x\n+++ b/src/a.cu\n@@ -1,2 +1,2 @@\n+a\nrubbish\n"}) {
    auto changed = ChangedLines::fromUnifiedDiff(diff, root_, "pr.diff");
    ASSERT_FALSE(bool(changed)) << diff;
    std::string message = llvm::toString(changed.takeError());
    EXPECT_NE(message.find("pr.diff"), std::string::npos) << message;
  }
}

TEST_F(ChangedLinesTest, AnEmptyDiffTouchesNothing) {
  auto changed = ChangedLines::fromUnifiedDiff("", root_, "empty.diff");
  ASSERT_TRUE(bool(changed)) << llvm::toString(changed.takeError());
  EXPECT_FALSE(changed->touches(at("src/a.cu", 1)));
}

} // namespace
