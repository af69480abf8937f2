// The fix root without --fix-root: the sources' checkout, else CMake's
// source directory (a release tarball has no .git).
#include "analyzer/fix/ProjectRoot.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace streamlint;

namespace {

class ProjectRootTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("project-root", root_));
    for (const char *dir : {"proj/src/a", "proj/src/b", "proj/include", "proj/build"})
      llvm::sys::fs::create_directories(path(dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root_); }
  std::string path(const char *relative) const {
    llvm::SmallString<256> result(root_);
    llvm::sys::path::append(result, relative);
    return std::string(result);
  }
  void write(const char *relative, const std::string &text) {
    std::error_code error;
    llvm::raw_fd_ostream out(path(relative), error);
    out << text;
  }
  llvm::SmallString<256> root_;
};

TEST_F(ProjectRootTest, CommonDirectoryOutsideACheckoutWithoutCMake) {
  std::vector<std::string> files{path("proj/src/a/x.cu"), path("proj/src/b/y.cu")};
  EXPECT_EQ(projectRootOf(files), path("proj/src"));
  EXPECT_EQ(projectRootOf(files, path("proj/build")), path("proj/src"));
}

TEST_F(ProjectRootTest, CMakeSourceDirectoryBesideTheDatabase) {
  write("proj/build/CMakeCache.txt",
        "# This is the CMakeCache file.\nCMAKE_HOME_DIRECTORY:INTERNAL=" + path("proj") +
            "\nCMAKE_BUILD_TYPE:STRING=\n");
  std::vector<std::string> files{path("proj/src/a/x.cu"), path("proj/src/b/y.cu")};
  EXPECT_EQ(cmakeSourceDirectory(path("proj/build")), path("proj"));
  // include/ beside src/ is inside the root now.
  EXPECT_EQ(projectRootOf(files, path("proj/build")), path("proj"));
}

TEST_F(ProjectRootTest, CMakeSourceDirectoryNotHoldingTheSourcesIsIgnored) {
  write("proj/build/CMakeCache.txt",
        "CMAKE_HOME_DIRECTORY:INTERNAL=" + path("proj/include") + "\n");
  std::vector<std::string> files{path("proj/src/a/x.cu")};
  EXPECT_EQ(projectRootOf(files, path("proj/build")), path("proj/src/a"));
}

TEST_F(ProjectRootTest, ACheckoutWins) {
  llvm::sys::fs::create_directories(path("proj/src/.git"));
  write("proj/build/CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=" + path("proj") + "\n");
  std::vector<std::string> files{path("proj/src/a/x.cu")};
  EXPECT_EQ(projectRootOf(files, path("proj/build")), path("proj/src"));
}

} // namespace
