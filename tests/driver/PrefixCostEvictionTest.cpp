// The measured runs a project index keeps (preamble-costs/) stay bounded:
// the least recently used are removed, nothing else is.
#include "analyzer/driver/PrefixCost.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <utime.h>

namespace streamlint {
namespace {

std::string costName(char digit) { return std::string(64, digit) + ".txt"; }

class PrefixCostEviction : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("prefix-costs", path));
    directory_ = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory_); }

  /// A file named `name`, last used `age` seconds ago.
  void write(const std::string &name, long age) {
    std::string path = pathOf(name);
    std::ofstream(path) << "12 345 ";
    struct utimbuf times {};
    times.actime = times.modtime = 1'700'000'000 - age;
    ASSERT_EQ(::utime(path.c_str(), &times), 0);
  }
  bool exists(const std::string &name) { return llvm::sys::fs::exists(pathOf(name)); }
  std::string pathOf(const std::string &name) {
    llvm::SmallString<128> path(directory_);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  std::string directory_;
};

TEST_F(PrefixCostEviction, RemovesTheLeastRecentlyUsedBeyondTheLimit) {
  write(costName('a'), 50);
  write(costName('b'), 10);
  write(costName('c'), 40);
  write(costName('d'), 20);
  write(costName('e'), 30);
  evictPrefixCosts(directory_, 3);
  EXPECT_FALSE(exists(costName('a')));
  EXPECT_FALSE(exists(costName('c')));
  EXPECT_TRUE(exists(costName('b')));
  EXPECT_TRUE(exists(costName('d')));
  EXPECT_TRUE(exists(costName('e')));
}

TEST_F(PrefixCostEviction, LeavesAnythingElseAndAnythingWithinTheLimit) {
  write(costName('a'), 50);
  write(costName('b'), 10);
  write("notes.txt", 90);                    // not a count file's name
  write(std::string(64, 'f') + ".tmp", 90);  // a writer's scratch
  evictPrefixCosts(directory_, 2);
  EXPECT_TRUE(exists(costName('a')));
  EXPECT_TRUE(exists(costName('b')));
  evictPrefixCosts(directory_, 1);
  EXPECT_FALSE(exists(costName('a')));
  EXPECT_TRUE(exists(costName('b')));
  EXPECT_TRUE(exists("notes.txt"));
  EXPECT_TRUE(exists(std::string(64, 'f') + ".tmp"));
}

TEST_F(PrefixCostEviction, AMissingDirectoryIsNothingToDo) {
  evictPrefixCosts(directory_ + "/absent", 0);
  EXPECT_FALSE(llvm::sys::fs::exists(directory_ + "/absent"));
}

} // namespace
} // namespace streamlint
