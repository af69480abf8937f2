#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <fstream>

namespace streamlint {
namespace {

struct BaseCase {
  const char *path, *base, *expected; // expected nullptr: outside
};

TEST(PathsTest, PathUnderBase) {
  const BaseCase cases[] = {
      {"/a/b/c.cu", "/a/b", "c.cu"},
      {"/a/b/c.cu", "/a/b/", "c.cu"},
      {"/a/b/d/c.cu", "/a/b", "d/c.cu"},
      {"/a/bc/c.cu", "/a/b", nullptr}, // prefix of a name, not a directory
      {"/a/b", "/a/b", nullptr},
      {"/x/c.cu", "/a/b", nullptr},
      {"/x/c.cu", "", nullptr},
      {"/x/c.cu", "/", "x/c.cu"},
  };
  for (const BaseCase &c : cases) {
    std::optional<std::string> got = pathUnderBase(c.path, c.base);
    if (c.expected)
      EXPECT_EQ(got, std::optional<std::string>(c.expected)) << c.path << " " << c.base;
    else
      EXPECT_EQ(got, std::nullopt) << c.path << " " << c.base;
  }
}

TEST(PathsTest, RelativePathIsLexicalAndSlashSeparated) {
  EXPECT_EQ(relativePath("/p/build", "/p/build/gen/a.cu"), "gen/a.cu");
  EXPECT_EQ(relativePath("/p/build", "/p/src/a.cu"), "../src/a.cu");
  EXPECT_EQ(relativePath("/p/build", "/q/a.cu"), "../../q/a.cu");
  EXPECT_EQ(relativePath("/p", "/p/a.cu"), "a.cu");
}

TEST(PathsTest, AbsolutePathDropsDotsAndKeepsLinks) {
  EXPECT_EQ(absolutePath("/a/./b/../c.cu"), "/a/c.cu");
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("paths-test", directory));
  std::string real = realPathOf(directory.str()); // /tmp may itself be a link
  std::string target = real + "/target.cu", link = real + "/link.cu";
  { std::ofstream(target) << "\n"; }
  ASSERT_FALSE(llvm::sys::fs::create_link(target, link));
  EXPECT_EQ(absolutePath(real + "/./link.cu"), link);
  EXPECT_EQ(realPathOf(real + "/./link.cu"), target);
  // A path that does not exist has no links to resolve: only made clean.
  EXPECT_EQ(realPathOf(real + "/none/../missing.cu"), real + "/missing.cu");
  llvm::sys::fs::remove_directories(real);
}

} // namespace
} // namespace streamlint
