#include "analyzer/index/ProjectIndex.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace streamlint;
using namespace streamlint::index;
namespace fs = std::filesystem;

namespace {

class ProjectIndexTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("streamlint-index-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    header_ = (root_ / "a.cuh").string();
    write(header_, "#pragma once\n");
  }
  void TearDown() override { fs::remove_all(root_); }

  static void write(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string read(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  IndexedUnit unit() const {
    IndexedUnit unit;
    Finding finding;
    finding.checkId = "device-sync";
    finding.location = {header_, 2, 3};
    finding.end = {header_, 2, 9};
    finding.message = "sync in a loop";
    finding.related.push_back({{header_, 1, 1}, "the loop"});
    FixIt fix;
    fix.description = "use a stream";
    fix.edits.push_back({header_, 4, 2, "x", {header_, 1, 5}, {header_, 1, 7}, "d"});
    finding.fixes.push_back(fix);
    unit.findings.push_back(finding);
    unit.reach.mainFile = header_;
    unit.reach.functions.push_back({"c:@F@f", "f", {header_, 1, 6}, 4});
    unit.includes.push_back({header_, fileSha256(header_)});
    return unit;
  }
  std::string entryFile(const std::string &key) const {
    return (root_ / "index" / "entries" / key.substr(0, 2) / (key + ".json")).string();
  }

  fs::path root_;
  std::string header_;
};

TEST_F(ProjectIndexTest, RoundTripsEveryField) {
  ProjectIndex index((root_ / "index").string());
  std::string key = keyOf({"a", "b"});
  index.store(key, unit());
  ProjectIndex again((root_ / "index").string());
  auto loaded = again.lookup(key);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->findings.size(), 1u);
  const Finding &f = loaded->findings[0];
  EXPECT_EQ(f.message, "sync in a loop");
  ASSERT_EQ(f.related.size(), 1u);
  EXPECT_EQ(f.related[0].message, "the loop");
  ASSERT_EQ(f.fixes.size(), 1u);
  EXPECT_EQ(f.fixes[0].edits[0].replacement, "x");
  EXPECT_EQ(f.fixes[0].edits[0].fileDigest, "d");
  ASSERT_EQ(loaded->reach.functions.size(), 1u);
  EXPECT_EQ(loaded->reach.functions[0].kinds, 4u);
  EXPECT_EQ(again.hits(), 1u);
  EXPECT_TRUE(again.takeNotes().empty());
  EXPECT_TRUE(fs::exists(root_ / "index" / "CACHEDIR.TAG"));
}

TEST_F(ProjectIndexTest, KeysOfDifferentPartsDiffer) {
  EXPECT_NE(keyOf({"ab", "c"}), keyOf({"a", "bc"}));
  EXPECT_EQ(keyOf({"a"}), keyOf({"a"}));
}

TEST_F(ProjectIndexTest, AnEditedOrDeletedFileMakesTheEntryStale) {
  ProjectIndex index((root_ / "index").string());
  std::string key = keyOf({"k"});
  index.store(key, unit());
  write(header_, "#pragma once\n// edited\n");
  EXPECT_FALSE(ProjectIndex((root_ / "index").string()).lookup(key));
  fs::remove(header_);
  ProjectIndex fresh((root_ / "index").string());
  EXPECT_FALSE(fresh.lookup(key));
  EXPECT_TRUE(fresh.takeNotes().empty()); // stale is normal, not damage
}

TEST_F(ProjectIndexTest, AFileThatAppearsWhereAnIncludeWasMissingMakesTheEntryStale) {
  ProjectIndex index((root_ / "index").string());
  std::string key = keyOf({"missing"});
  IndexedUnit missing = unit();
  missing.problem = TranslationUnitProblem{header_, {"a.cuh:1:10: fatal error: 'x.h' file not found"}};
  missing.problem->fatalError = missing.problem->errors.front();
  missing.absent = {(root_ / "inc" / "x.h").string(), (root_ / "x.h").string()};
  index.store(key, missing);
  std::optional<IndexedUnit> again = ProjectIndex((root_ / "index").string()).lookup(key);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->absent, missing.absent);
  ASSERT_TRUE(again->problem);
  EXPECT_EQ(again->problem->fatalError, missing.problem->fatalError);
  fs::create_directories(root_ / "inc");
  write((root_ / "inc" / "x.h").string(), "#pragma once\n");
  ProjectIndex fresh((root_ / "index").string());
  EXPECT_FALSE(fresh.lookup(key));
  EXPECT_TRUE(fresh.takeNotes().empty());
}

TEST_F(ProjectIndexTest, DamagedEntriesAreNotedAndNeverTrusted) {
  std::string key = keyOf({"k"});
  ProjectIndex((root_ / "index").string()).store(key, unit());
  std::string good = read(entryFile(key));
  std::vector<std::string> damaged = {
      good.substr(0, good.size() / 2),  // truncated
      good.substr(0, good.size() - 16), // truncated near the end
      "",                               // empty
      "\x00\x01garbage",                // not JSON
      [&] {                             // another format
        std::string other = good;
        other.replace(other.find(kEntryFormat), strlen(kEntryFormat),
                      "streamlint-index-entry-0");
        return other;
      }(),
  };
  for (const std::string &text : damaged) {
    write(entryFile(key), text);
    ProjectIndex index((root_ / "index").string());
    EXPECT_FALSE(index.lookup(key));
    std::vector<std::string> notes = index.takeNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("ignoring a damaged index entry"), std::string::npos);
  }
  // Stored under another key (a renamed file): not used for this key.
  std::string other = keyOf({"other"});
  fs::create_directories(fs::path(entryFile(other)).parent_path());
  write(entryFile(other), good);
  EXPECT_FALSE(ProjectIndex((root_ / "index").string()).lookup(other));
}

TEST_F(ProjectIndexTest, ConcurrentStoresLeaveCompleteEntries) {
  std::string key = keyOf({"shared"});
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i)
    writers.emplace_back([&] {
      ProjectIndex index((root_ / "index").string());
      for (int j = 0; j < 20; ++j) {
        index.store(key, unit());
        if (auto loaded = index.lookup(key))
          EXPECT_EQ(loaded->findings.size(), 1u);
        EXPECT_TRUE(index.takeNotes().empty());
      }
    });
  for (std::thread &writer : writers)
    writer.join();
  EXPECT_TRUE(ProjectIndex((root_ / "index").string()).lookup(key));
  for (const auto &file : fs::recursive_directory_iterator(root_ / "index"))
    EXPECT_EQ(file.path().string().find(".tmp-"), std::string::npos) << file.path();
}

TEST_F(ProjectIndexTest, AnUnwritableDirectoryIsNotedOnce) {
  write((root_ / "file").string(), "x");
  ProjectIndex index((root_ / "file" / "index").string());
  index.store(keyOf({"a"}), unit());
  index.store(keyOf({"b"}), unit());
  EXPECT_EQ(index.takeNotes().size(), 1u);
}

} // namespace
