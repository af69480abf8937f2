#include "analyzer/index/PreambleStore.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace streamlint;
using namespace streamlint::index;
namespace fs = std::filesystem;

namespace {

class PreambleStoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("streamlint-preambles-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    header_ = (root_ / "a.cuh").string();
    write(header_, "#pragma once\n");
    index_ = std::make_unique<ProjectIndex>(
        (root_ / "index").string(),
        StoreAuthenticator::fromSecret("a secret of at least sixteen characters"));
  }
  void TearDown() override { fs::remove_all(root_); }

  static void write(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  PreambleManifest manifest() const {
    PreambleManifest manifest;
    manifest.prefixBytes = 42;
    manifest.endsAtStartOfLine = true;
    manifest.files.push_back({header_, fileSha256(header_)});
    return manifest;
  }
  /// Stores a "PCH" of `bytes` under `key` through a scratch file.
  std::optional<LoadedPreamble> put(PreambleStore &store, const std::string &key,
                                    const std::string &bytes) {
    std::string scratch = store.scratchPath(key);
    write(scratch, bytes);
    return store.store(key, scratch, manifest());
  }
  static std::string key(char c) { return std::string(64, c); }
  std::string pch(const std::string &key) const {
    return (root_ / "index" / "preambles" / (key + ".pch")).string();
  }

  fs::path root_;
  std::string header_;
  std::unique_ptr<ProjectIndex> index_;
};

TEST_F(PreambleStoreTest, ManifestRoundTrips) {
  PreambleManifest in = manifest();
  in.instantiationsNameProject = false;
  in.files.push_back({"/usr/include/with space.h", std::string(64, 'b'), true});
  std::string text = manifestText(key('a'), std::string(64, 'c'), 1234, in);
  std::string digest, error;
  uint64_t size = 0;
  PreambleManifest out;
  ASSERT_TRUE(parseManifest(text, key('a'), digest, size, out, error)) << error;
  EXPECT_EQ(digest, std::string(64, 'c'));
  EXPECT_EQ(size, 1234u);
  EXPECT_EQ(out.prefixBytes, 42u);
  EXPECT_TRUE(out.endsAtStartOfLine);
  EXPECT_FALSE(out.instantiationsNameProject);
  ASSERT_EQ(out.files.size(), 2u);
  EXPECT_EQ(out.files[1].path, "/usr/include/with space.h");
  EXPECT_TRUE(out.files[1].system);
  EXPECT_FALSE(parseManifest(text, key('b'), digest, size, out, error)); // another key
  EXPECT_FALSE(parseManifest(text.substr(0, 30), key('a'), digest, size, out, error));
}

TEST_F(PreambleStoreTest, StoredPreambleIsReusedWhileItsFilesAreUnchanged) {
  PreambleStore store(*index_, 0);
  ASSERT_TRUE(put(store, key('a'), "pch bytes"));
  EXPECT_EQ(store.built(), 1u);
  std::optional<LoadedPreamble> loaded = store.lookup(key('a'));
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->pch->getBuffer(), "pch bytes");
  EXPECT_EQ(loaded->manifest.prefixBytes, 42u);
  EXPECT_EQ(store.reused(), 1u);
  EXPECT_FALSE(store.lookup(key('b'))); // never stored
}

TEST_F(PreambleStoreTest, EditedHeaderMakesItStale) {
  PreambleStore store(*index_, 0);
  ASSERT_TRUE(put(store, key('a'), "pch bytes"));
  write(header_, "#pragma once\nint x;\n");
  ProjectIndex fresh((root_ / "index").string(),
                     StoreAuthenticator::fromSecret("a secret of at least sixteen characters"));
  PreambleStore again(fresh, 0); // a new run: digests are read again
  EXPECT_FALSE(again.lookup(key('a')));
}

TEST_F(PreambleStoreTest, DamagedPchIsRefusedNotedAndRemoved) {
  PreambleStore store(*index_, 0);
  ASSERT_TRUE(put(store, key('a'), "pch bytes"));
  write(pch(key('a')), "pch bytEs");
  EXPECT_FALSE(store.lookup(key('a')));
  EXPECT_FALSE(fs::exists(pch(key('a'))));
  std::vector<std::string> notes = index_->takeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("ignoring a damaged preamble"), std::string::npos) << notes[0];
}

TEST_F(PreambleStoreTest, ManifestSealedWithAnotherSecretIsRefused) {
  {
    PreambleStore store(*index_, 0);
    ASSERT_TRUE(put(store, key('a'), "pch bytes"));
  }
  ProjectIndex other((root_ / "index").string(),
                     StoreAuthenticator::fromSecret("another secret, also long enough"));
  PreambleStore store(other, 0);
  EXPECT_FALSE(store.lookup(key('a')));
  std::vector<std::string> notes = other.takeNotes();
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("unauthenticated preamble"), std::string::npos) << notes[0];
}

TEST_F(PreambleStoreTest, LeastRecentlyUsedAreEvictedBeyondTheLimit) {
  // Each preamble: a 1000-byte PCH and a manifest of a few hundred bytes.
  PreambleStore store(*index_, 3000);
  std::string bytes(1000, 'x');
  ASSERT_TRUE(put(store, key('a'), bytes));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(put(store, key('b'), bytes));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(store.lookup(key('a'))); // used: now newer than b
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(put(store, key('c'), bytes));
  EXPECT_TRUE(fs::exists(pch(key('a'))));
  EXPECT_FALSE(fs::exists(pch(key('b')))); // the least recently used
  EXPECT_TRUE(fs::exists(pch(key('c'))));
}

} // namespace
