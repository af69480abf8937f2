#include "analyzer/index/ProjectIndex.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sys/stat.h>
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
  std::string dir() const { return (root_ / "index").string(); }
  static StoreAuthenticator secret() {
    return StoreAuthenticator::fromSecret("the secret of this test");
  }
  std::string entryFile(const std::string &key) const {
    return (root_ / "index" / "entries" / key.substr(0, 2) / (key + ".json")).string();
  }

  fs::path root_;
  std::string header_;
};

TEST_F(ProjectIndexTest, RoundTripsEveryField) {
  ProjectIndex index(dir(), secret());
  std::string key = keyOf({"a", "b"});
  index.store(key, unit());
  ProjectIndex again(dir(), secret());
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
  ProjectIndex index(dir(), secret());
  std::string key = keyOf({"k"});
  index.store(key, unit());
  write(header_, "#pragma once\n// edited\n");
  EXPECT_FALSE(ProjectIndex(dir(), secret()).lookup(key));
  fs::remove(header_);
  ProjectIndex fresh(dir(), secret());
  EXPECT_FALSE(fresh.lookup(key));
  EXPECT_TRUE(fresh.takeNotes().empty()); // stale is normal, not damage
}

TEST_F(ProjectIndexTest, AFileThatAppearsWhereAnIncludeWasMissingMakesTheEntryStale) {
  ProjectIndex index(dir(), secret());
  std::string key = keyOf({"missing"});
  IndexedUnit missing = unit();
  missing.problem = TranslationUnitProblem{header_, {"a.cuh:1:10: fatal error: 'x.h' file not found"}};
  missing.problem->fatalError = missing.problem->errors.front();
  missing.absent = {(root_ / "inc" / "x.h").string(), (root_ / "x.h").string()};
  index.store(key, missing);
  std::optional<IndexedUnit> again = ProjectIndex(dir(), secret()).lookup(key);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->absent, missing.absent);
  ASSERT_TRUE(again->problem);
  EXPECT_EQ(again->problem->fatalError, missing.problem->fatalError);
  fs::create_directories(root_ / "inc");
  write((root_ / "inc" / "x.h").string(), "#pragma once\n");
  ProjectIndex fresh(dir(), secret());
  EXPECT_FALSE(fresh.lookup(key));
  EXPECT_TRUE(fresh.takeNotes().empty());
}

TEST_F(ProjectIndexTest, DamagedEntriesAreNotedAndNeverTrusted) {
  std::string key = keyOf({"k"});
  ProjectIndex(dir(), secret()).store(key, unit());
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
    ProjectIndex index(dir(), secret());
    EXPECT_FALSE(index.lookup(key));
    std::vector<std::string> notes = index.takeNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("not sealed with a test secret ignored and rebuilt"),
              std::string::npos) << notes[0];
  }
  // Sealed with the right key, but not an entry: damaged.
  for (const std::string &body : {std::string("\x00\x01garbage"), std::string("[]")}) {
    write(entryFile(key), secret().seal(SealPurpose::IndexEntry, body));
    ProjectIndex index(dir(), secret());
    EXPECT_FALSE(index.lookup(key));
    std::vector<std::string> notes = index.takeNotes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("ignoring a damaged index entry"), std::string::npos) << notes[0];
  }
  // Stored under another key (a renamed file): not used for this key.
  std::string other = keyOf({"other"});
  fs::create_directories(fs::path(entryFile(other)).parent_path());
  write(entryFile(other), good);
  EXPECT_FALSE(ProjectIndex(dir(), secret()).lookup(other));
}

TEST_F(ProjectIndexTest, ConcurrentStoresLeaveCompleteEntries) {
  std::string key = keyOf({"shared"});
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i)
    writers.emplace_back([&] {
      ProjectIndex index(dir(), secret());
      for (int j = 0; j < 20; ++j) {
        index.store(key, unit());
        if (auto loaded = index.lookup(key))
          EXPECT_EQ(loaded->findings.size(), 1u);
        std::vector<std::string> notes = index.takeNotes();
        EXPECT_TRUE(notes.empty()) << notes.front();
      }
    });
  for (std::thread &writer : writers)
    writer.join();
  EXPECT_TRUE(ProjectIndex(dir(), secret()).lookup(key));
  for (const auto &file : fs::recursive_directory_iterator(root_ / "index"))
    EXPECT_EQ(file.path().string().find(".streamlint-"), std::string::npos) << file.path();
}

TEST_F(ProjectIndexTest, AnUnwritableDirectoryIsNotedOnce) {
  write((root_ / "file").string(), "x");
  ProjectIndex index((root_ / "file" / "index").string(), secret());
  index.store(keyOf({"a"}), unit());
  index.store(keyOf({"b"}), unit());
  EXPECT_EQ(index.takeNotes().size(), 1u);
}

} // namespace

namespace {

/// What an attacker who can write the cache (not the key) can do: nothing.
TEST_F(ProjectIndexTest, EntriesEditedOrSealedWithAnotherKeyAreNeverTrusted) {
  std::string key = keyOf({"k"});
  ProjectIndex(dir(), secret()).store(key, unit());
  std::string good = read(entryFile(key));
  ASSERT_EQ(good.rfind("streamlint-hmac-sha256 ", 0), 0u) << good.substr(0, 80);
  std::string forged = good;
  forged.replace(forged.find("sync in a loop"), 14, "sync in a LOOP");
  write(entryFile(key), forged);
  ProjectIndex index(dir(), secret());
  EXPECT_FALSE(index.lookup(key));
  // Resealed with another key: just as untrusted.
  std::string body = good.substr(good.find('\n') + 1);
  write(entryFile(key), StoreAuthenticator::fromSecret("another key of another user")
                            .seal(SealPurpose::IndexEntry, body));
  EXPECT_FALSE(index.lookup(key));
  // Unsealed, or sealed as a shard part.
  write(entryFile(key), body);
  EXPECT_FALSE(index.lookup(key));
  write(entryFile(key), secret().seal(SealPurpose::ShardPart, body));
  EXPECT_FALSE(index.lookup(key));
  std::vector<std::string> notes = index.takeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("4 index entries in " + dir() + " not sealed"), std::string::npos)
      << notes[0];
  write(entryFile(key), good);
  EXPECT_TRUE(ProjectIndex(dir(), secret()).lookup(key));
}

TEST_F(ProjectIndexTest, WithoutAKeyTheIndexIsNeitherReadNorWritten) {
  ProjectIndex index(dir(), std::nullopt, "no home directory");
  index.store(keyOf({"k"}), unit());
  EXPECT_FALSE(index.lookup(keyOf({"k"})));
  EXPECT_FALSE(fs::exists(root_ / "index"));
  std::vector<std::string> notes = index.takeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("is not used: no home directory"), std::string::npos) << notes[0];
}

/// A FIFO or a link to /dev/zero where an entry should be: noted and
/// rebuilt, never waited on or read without end.
TEST_F(ProjectIndexTest, EntriesThatAreNotRegularFilesAreNotRead) {
  std::string key = keyOf({"k"});
  ProjectIndex(dir(), secret()).store(key, unit());
  fs::remove(entryFile(key));
  ASSERT_EQ(mkfifo(entryFile(key).c_str(), 0600), 0);
  ProjectIndex index(dir(), secret());
  EXPECT_FALSE(index.lookup(key));
  fs::remove(entryFile(key));
  fs::create_symlink("/dev/zero", entryFile(key));
  EXPECT_FALSE(index.lookup(key));
  std::vector<std::string> notes = index.takeNotes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("not a regular file (a FIFO)"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("not a regular file (a character device)"), std::string::npos)
      << notes[1];
}

/// Whoever can write the cache can plant a link where an entry will be
/// stored: the store replaces the link, it never writes through it.
TEST_F(ProjectIndexTest, AnEntryPlantedAsALinkOrFifoIsReplacedNotFollowed) {
  std::string key = keyOf({"k"});
  std::string victim = (root_ / "victim").string();
  write(victim, "the user's file\n");
  fs::create_directories(fs::path(entryFile(key)).parent_path());
  fs::create_symlink(victim, entryFile(key));
  ProjectIndex index(dir(), secret());
  index.store(key, unit());
  EXPECT_EQ(read(victim), "the user's file\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(entryFile(key))));
  fs::remove(entryFile(key));
  ASSERT_EQ(mkfifo(entryFile(key).c_str(), 0600), 0);
  index.store(key, unit()); // would block on the FIFO if it opened it
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(entryFile(key))));
  EXPECT_TRUE(ProjectIndex(dir(), secret()).lookup(key));
}

/// Bytes that are not UTF-8 (a Latin-1 comment in a snippet or a fix, a
/// header's file name) are stored and read back byte for byte.
TEST_F(ProjectIndexTest, BytesThatAreNotUtf8RoundTrip) {
  std::string latin1 = root_.string() + "/donn\xe9" "es.cuh";
  write(latin1, "#pragma once // donn\xe9" "es\n");
  IndexedUnit stored = unit();
  stored.findings[0].message = "copie des donn\xe9" "es, \x00 and \xff\xfe";
  stored.findings[0].snippet = "cudaMemcpy(d, h, n, // donn\xe9" "es";
  stored.findings[0].fixes[0].edits[0].replacement = "/* donn\xe9" "es */\r\n";
  stored.includes.push_back({latin1, fileSha256(latin1), true});
  std::string key = keyOf({"latin1"});
  ProjectIndex index(dir(), secret());
  index.store(key, stored);
  EXPECT_TRUE(index.takeNotes().empty());
  std::optional<IndexedUnit> loaded = ProjectIndex(dir(), secret()).lookup(key);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->findings[0].message, stored.findings[0].message);
  EXPECT_EQ(loaded->findings[0].snippet, stored.findings[0].snippet);
  EXPECT_EQ(loaded->findings[0].fixes[0].edits[0].replacement,
            stored.findings[0].fixes[0].edits[0].replacement);
  ASSERT_EQ(loaded->includes.size(), 2u);
  EXPECT_EQ(loaded->includes[1].path, latin1);
  EXPECT_TRUE(loaded->includes[1].system);
}

/// --cache-dir naming a directory that already holds something else: never
/// made an index (no .gitignore of "*" in a checkout).
TEST_F(ProjectIndexTest, AForeignDirectoryIsNotUsed) {
  write((root_ / "main.cpp").string(), "int main() {}\n");
  ProjectIndex index(root_.string(), secret());
  index.store(keyOf({"k"}), unit());
  EXPECT_FALSE(fs::exists(root_ / ".gitignore"));
  EXPECT_FALSE(fs::exists(root_ / "CACHEDIR.TAG"));
  EXPECT_FALSE(fs::exists(root_ / "entries"));
  std::vector<std::string> notes = index.takeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("is an existing directory that is not a streamlint index"),
            std::string::npos) << notes[0];
  // An empty directory, or one streamlint made an index, is used.
  fs::create_directories(root_ / "empty");
  ProjectIndex empty((root_ / "empty").string(), secret());
  empty.store(keyOf({"k"}), unit());
  EXPECT_TRUE(ProjectIndex((root_ / "empty").string(), secret()).lookup(keyOf({"k"})));
}

} // namespace
