#include "analyzer/index/StoreAuthentication.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace streamlint::index {
namespace {

constexpr const char *kSealPrefix = "streamlint-hmac-sha256 ";
constexpr size_t kMinimumSecret = 16;
constexpr size_t kKeyBytes = 32;

std::array<uint8_t, 32> sha256(std::string_view a, std::string_view b) {
  llvm::SHA256 hash;
  hash.update(llvm::arrayRefFromStringRef(llvm::StringRef(a.data(), a.size())));
  hash.update(llvm::arrayRefFromStringRef(llvm::StringRef(b.data(), b.size())));
  return hash.final();
}

/// RFC 2104 HMAC with SHA-256.
std::string hmacSha256(const std::string &secret, std::string_view message) {
  std::string key = secret;
  if (key.size() > 64) {
    auto digest = sha256(key, "");
    key.assign(digest.begin(), digest.end());
  }
  key.resize(64, '\0');
  std::string inner(64, '\0'), outer(64, '\0');
  for (size_t i = 0; i < 64; ++i) {
    inner[i] = static_cast<char>(key[i] ^ 0x36);
    outer[i] = static_cast<char>(key[i] ^ 0x5c);
  }
  auto innerDigest = sha256(inner, message);
  auto outerDigest =
      sha256(outer, std::string_view(reinterpret_cast<const char *>(innerDigest.data()),
                                     innerDigest.size()));
  return llvm::toHex(outerDigest, /*LowerCase=*/true);
}

bool sameInConstantTime(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  unsigned char difference = 0;
  for (size_t i = 0; i < a.size(); ++i)
    difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  return difference == 0;
}

const char *purposeName(SealPurpose purpose) {
  switch (purpose) {
  case SealPurpose::IndexEntry:
    return "index-entry\n";
  case SealPurpose::ShardPart:
    return "shard-part\n";
  case SealPurpose::Preamble:
    return "preamble\n";
  }
  return "";
}

std::string modeText(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
  return text;
}

/// $XDG_STATE_HOME/streamlint, else ~/.local/state/streamlint.
std::string stateDirectory() {
  if (const char *state = std::getenv("XDG_STATE_HOME"); state && *state == '/')
    return std::string(state) + "/streamlint";
  std::string home;
  if (const char *env = std::getenv("HOME"); env && *env)
    home = env;
  else if (const passwd *user = getpwuid(geteuid()))
    home = user->pw_dir;
  if (home.empty())
    return "";
  return home + "/.local/state/streamlint";
}

/// Creates `directory` and its missing parents with mode 0700.
bool makePrivateDirectories(const std::string &directory, std::string &error) {
  for (size_t slash = 1; slash <= directory.size(); ++slash) {
    if (slash != directory.size() && directory[slash] != '/')
      continue;
    std::string prefix = directory.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      error = "cannot create " + prefix + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

/// Why the file or directory behind `fd` must not hold the secret, or "".
std::string unsafeBecause(int fd, bool directory) {
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    return std::strerror(errno);
  if (directory ? !S_ISDIR(status.st_mode) : !S_ISREG(status.st_mode))
    return directory ? "not a directory" : "not a regular file";
  if (status.st_uid != ::geteuid())
    return "owned by another user (uid " + std::to_string(status.st_uid) + ")";
  mode_t open = directory ? (S_IWGRP | S_IWOTH) : (S_IRWXG | S_IRWXO);
  if (status.st_mode & open)
    return std::string(directory ? "writable" : "readable or writable") +
           " by other users (mode " + modeText(status.st_mode) + ")";
  return "";
}

/// Reads the key at `path` (64 hex digits and a newline); "" if absent.
std::optional<std::string> readKeyFile(const std::string &path, std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT)
      return std::string();
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::string why = unsafeBecause(fd, /*directory=*/false);
  char text[2 * kKeyBytes + 2] = {};
  ssize_t n = why.empty() ? ::read(fd, text, sizeof text) : 0;
  ::close(fd);
  if (!why.empty()) {
    error = path + " is " + why + ": not used (chmod 600 it, or delete it to get a new one)";
    return std::nullopt;
  }
  std::string hex(text, n > 0 ? size_t(n) : 0);
  if (!hex.empty() && hex.back() == '\n')
    hex.pop_back();
  std::string key;
  if (hex.size() != 2 * kKeyBytes || !llvm::tryGetFromHex(hex, key)) {
    error = path + ": not a streamlint key (64 hex digits); delete it to get a new one";
    return std::nullopt;
  }
  return key;
}

/// A new random key written to `path`, or the one a concurrent run wrote.
std::optional<std::string> createKeyFile(const std::string &directory,
                                         const std::string &path, std::string &error) {
  unsigned char random[kKeyBytes];
  for (size_t got = 0; got < kKeyBytes;) {
    ssize_t n = ::getrandom(random + got, kKeyBytes - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::string("no random bytes for a key: ") + std::strerror(errno);
      return std::nullopt;
    }
    got += size_t(n);
  }
  std::string hex = llvm::toHex(llvm::ArrayRef<uint8_t>(random, kKeyBytes), true) + "\n";
  std::string temporary = directory + "/index.key.tmp-XXXXXX";
  int fd = ::mkstemp(temporary.data()); // mode 0600
  if (fd < 0) {
    error = "cannot create a key in " + directory + ": " + std::strerror(errno);
    return std::nullopt;
  }
  bool written = ::write(fd, hex.data(), hex.size()) == ssize_t(hex.size()) &&
                 ::fchmod(fd, 0600) == 0 && ::fsync(fd) == 0;
  ::close(fd);
  // link(), not rename(): of two runs creating the key at once, one wins and
  // the other reads the winner's.
  bool linked = written && ::link(temporary.c_str(), path.c_str()) == 0;
  int linkError = errno;
  ::unlink(temporary.c_str());
  if (!written || (!linked && linkError != EEXIST)) {
    error = "cannot create " + path + ": " + std::strerror(written ? linkError : errno);
    return std::nullopt;
  }
  return readKeyFile(path, error);
}

} // namespace

std::optional<StoreAuthenticator> StoreAuthenticator::load(std::string &error) {
  if (const char *secret = std::getenv("STREAMLINT_INDEX_KEY"); secret && *secret) {
    if (std::strlen(secret) < kMinimumSecret) {
      error = "STREAMLINT_INDEX_KEY is shorter than " + std::to_string(kMinimumSecret) +
              " characters: too easy to guess";
      return std::nullopt;
    }
    return StoreAuthenticator(secret, "STREAMLINT_INDEX_KEY");
  }
  std::string directory = stateDirectory();
  if (directory.empty()) {
    error = "no home directory for the index key (set HOME, XDG_STATE_HOME or "
            "STREAMLINT_INDEX_KEY)";
    return std::nullopt;
  }
  if (!makePrivateDirectories(directory, error))
    return std::nullopt;
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::string why = fd < 0 ? std::strerror(errno) : unsafeBecause(fd, /*directory=*/true);
  if (fd >= 0)
    ::close(fd);
  if (!why.empty()) {
    error = directory + " is " + why + ": the index key is not kept there";
    return std::nullopt;
  }
  std::string path = directory + "/index.key";
  std::optional<std::string> key = readKeyFile(path, error);
  if (key && key->empty())
    key = createKeyFile(directory, path, error);
  if (!key)
    return std::nullopt;
  return StoreAuthenticator(*key, path);
}

StoreAuthenticator StoreAuthenticator::fromSecret(std::string secret) {
  return StoreAuthenticator(std::move(secret), "a test secret");
}

std::string StoreAuthenticator::mac(SealPurpose purpose, std::string_view body) const {
  std::string message = purposeName(purpose);
  message.append(body.data(), body.size());
  return hmacSha256(secret_, message);
}

std::string StoreAuthenticator::seal(SealPurpose purpose, std::string_view body) const {
  std::string text = kSealPrefix + mac(purpose, body) + "\n";
  text.append(body.data(), body.size());
  return text;
}

SealState openSealed(const StoreAuthenticator *authenticator, SealPurpose purpose,
                     std::string_view text, std::string_view &body) {
  std::string_view prefix(kSealPrefix);
  size_t newline = text.find('\n');
  if (text.substr(0, prefix.size()) != prefix || newline == std::string_view::npos) {
    body = text;
    return SealState::Unsealed;
  }
  std::string_view seal = text.substr(prefix.size(), newline - prefix.size());
  body = text.substr(newline + 1);
  if (!authenticator)
    return SealState::Unsealed;
  return sameInConstantTime(seal, authenticator->mac(purpose, body)) ? SealState::Valid
                                                                     : SealState::Invalid;
}

} // namespace streamlint::index
