// The key that seals index entries and shard parts: kept outside the cache,
// created once with mode 0600 in a 0700 directory, refused when others may
// read it; seals that differ in key, purpose or one byte do not verify.
#include "analyzer/StoredJson.h"
#include "analyzer/index/StoreAuthentication.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace streamlint;
using namespace streamlint::index;
namespace fs = std::filesystem;

namespace {

class StoreAuthenticationTest : public ::testing::Test {
protected:
  void SetUp() override {
    state_ = fs::temp_directory_path() /
             ("streamlint-key-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(state_);
    setenv("XDG_STATE_HOME", state_.c_str(), 1);
    unsetenv("STREAMLINT_INDEX_KEY");
  }
  void TearDown() override {
    unsetenv("XDG_STATE_HOME");
    fs::remove_all(state_);
  }
  static unsigned modeOf(const fs::path &path) {
    struct stat status {};
    ::stat(path.c_str(), &status);
    return status.st_mode & 07777;
  }
  fs::path state_;
};

TEST_F(StoreAuthenticationTest, CreatesAPrivateKeyOnceAndReusesIt) {
  std::string error;
  std::optional<StoreAuthenticator> first = StoreAuthenticator::load(error);
  ASSERT_TRUE(first) << error;
  fs::path key = state_ / "streamlint" / "index.key";
  EXPECT_EQ(first->source(), key.string());
  EXPECT_EQ(modeOf(key), 0600u);
  EXPECT_EQ(modeOf(state_ / "streamlint"), 0700u);
  std::optional<StoreAuthenticator> second = StoreAuthenticator::load(error);
  ASSERT_TRUE(second) << error;
  EXPECT_EQ(first->mac(SealPurpose::IndexEntry, "body"),
            second->mac(SealPurpose::IndexEntry, "body"));
  // Another user's state directory (another key): another seal.
  setenv("XDG_STATE_HOME", (state_ / "other").c_str(), 1);
  std::optional<StoreAuthenticator> other = StoreAuthenticator::load(error);
  ASSERT_TRUE(other) << error;
  EXPECT_NE(first->mac(SealPurpose::IndexEntry, "body"),
            other->mac(SealPurpose::IndexEntry, "body"));
}

/// Mode bits decide (root could read the file anyway).
TEST_F(StoreAuthenticationTest, AKeyOthersMayReadIsRefused) {
  std::string error;
  ASSERT_TRUE(StoreAuthenticator::load(error)) << error;
  fs::path key = state_ / "streamlint" / "index.key";
  ::chmod(key.c_str(), 0644);
  EXPECT_FALSE(StoreAuthenticator::load(error));
  EXPECT_NE(error.find("readable or writable by other users (mode 0644)"), std::string::npos)
      << error;
  ::chmod(key.c_str(), 0600);
  ::chmod((state_ / "streamlint").c_str(), 0777);
  EXPECT_FALSE(StoreAuthenticator::load(error));
  EXPECT_NE(error.find("writable by other users (mode 0777)"), std::string::npos) << error;
  ::chmod((state_ / "streamlint").c_str(), 0700);
  std::ofstream(key, std::ios::trunc) << "not hex\n";
  EXPECT_FALSE(StoreAuthenticator::load(error));
  EXPECT_NE(error.find("not a streamlint key"), std::string::npos) << error;
}

TEST_F(StoreAuthenticationTest, TheSharedSecretComesFirstAndMustBeLongEnough) {
  setenv("STREAMLINT_INDEX_KEY", "a secret the CI jobs share", 1);
  std::string error;
  std::optional<StoreAuthenticator> shared = StoreAuthenticator::load(error);
  ASSERT_TRUE(shared) << error;
  EXPECT_EQ(shared->source(), "STREAMLINT_INDEX_KEY");
  EXPECT_FALSE(fs::exists(state_ / "streamlint" / "index.key"));
  setenv("STREAMLINT_INDEX_KEY", "short", 1);
  EXPECT_FALSE(StoreAuthenticator::load(error));
  EXPECT_NE(error.find("shorter than 16 characters"), std::string::npos) << error;
  unsetenv("STREAMLINT_INDEX_KEY");
}

TEST_F(StoreAuthenticationTest, SealsVerifyOnlyForTheirKeyPurposeAndBytes) {
  StoreAuthenticator key = StoreAuthenticator::fromSecret("the secret of this test");
  std::string sealed = key.seal(SealPurpose::ShardPart, "{\"a\":1}");
  std::string_view body;
  EXPECT_EQ(openSealed(&key, SealPurpose::ShardPart, sealed, body), SealState::Valid);
  EXPECT_EQ(body, "{\"a\":1}");
  EXPECT_EQ(openSealed(&key, SealPurpose::IndexEntry, sealed, body), SealState::Invalid);
  std::string altered = sealed;
  altered.back() = '2';
  EXPECT_EQ(openSealed(&key, SealPurpose::ShardPart, altered, body), SealState::Invalid);
  StoreAuthenticator other = StoreAuthenticator::fromSecret("another secret entirely");
  EXPECT_EQ(openSealed(&other, SealPurpose::ShardPart, sealed, body), SealState::Invalid);
  EXPECT_EQ(openSealed(&key, SealPurpose::ShardPart, "{\"a\":1}", body), SealState::Unsealed);
  EXPECT_EQ(openSealed(nullptr, SealPurpose::ShardPart, sealed, body), SealState::Unsealed);
  EXPECT_EQ(body, "{\"a\":1}");
}

/// The seal is RFC 2104 HMAC-SHA256 over the purpose line and the body
/// (values from Python's hmac module), with a short and a long key.
TEST_F(StoreAuthenticationTest, SealIsStandardHmacSha256) {
  EXPECT_EQ(StoreAuthenticator::fromSecret("Jefe").mac(SealPurpose::IndexEntry,
                                                       "what do ya want for nothing?"),
            "4717231dfc20fae1bc46e6e05454828a70666fd48660c10e6a4fc66e04fed122");
  EXPECT_EQ(StoreAuthenticator::fromSecret(std::string(100, 'k')).mac(SealPurpose::ShardPart, "x"),
            "8c0672394f2ac29447038ed89a209c6372a253e0633d2129556a822b1f45ce4f");
}

TEST(StoredJson, EveryByteSurvivesAndUtf8IsUnchanged) {
  std::string bytes = "plain, caf\xc3\xa9, Latin-1 caf\xe9, NUL \x00 end, \xff\xfe, "
                      "overlong \xc0\xaf, surrogate \xed\xa0\x80, cut \xe2\x82";
  bytes += std::string(1, '\0');
  EXPECT_EQ(unescapeBytes(escapeBytes(bytes)), bytes);
  EXPECT_EQ(escapeBytes("caf\xc3\xa9 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xf0\x9f\x98\x80");
  nlohmann::json value = {{"k\xe9y", {bytes, 1, "ok"}}};
  nlohmann::json back = parseStored(dumpStored(value));
  EXPECT_EQ(back, value);
  EXPECT_THROW(parseStored("{\"a\": 1.5}"), std::exception);
  EXPECT_THROW(unescapeBytes(std::string("\0zz", 3)), std::exception);
}

} // namespace
