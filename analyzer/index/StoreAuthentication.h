#pragma once
// What authenticates the results streamlint stores and reads back (index
// entries, shard parts): an HMAC-SHA256 under a secret kept outside the
// cache directory, so that whoever can write the cache (another user of a
// shared directory, another branch's CI job restoring it) cannot forge or
// alter an entry. docs/index.md, "What the index trusts".

#include <optional>
#include <string>
#include <string_view>

namespace streamlint::index {

/// What a sealed text is for: a seal made for one is not valid for the other.
enum class SealPurpose { IndexEntry, ShardPart, Preamble };

/// The secret and what it signs.
class StoreAuthenticator {
public:
  /// STREAMLINT_INDEX_KEY when it is set (at least 16 characters; in CI a
  /// secret shared by the jobs that share a cache or pass shard parts),
  /// else this user's key file, created on first use: index.key in
  /// $XDG_STATE_HOME/streamlint (~/.local/state/streamlint), 32 random bytes,
  /// mode 0600 in a directory of mode 0700, refused if anyone else may read
  /// or write it. Nullopt, with `error` saying why, when neither is usable.
  static std::optional<StoreAuthenticator> load(std::string &error);
  /// A fixed secret (tests, fuzz targets).
  static StoreAuthenticator fromSecret(std::string secret);

  /// `body` with a first line carrying its seal.
  std::string seal(SealPurpose purpose, std::string_view body) const;
  /// Where the secret came from: "STREAMLINT_INDEX_KEY" or the key file.
  const std::string &source() const { return source_; }

  /// The seal of `body` (hex HMAC-SHA256 of the purpose and the body).
  std::string mac(SealPurpose purpose, std::string_view body) const;

private:
  StoreAuthenticator(std::string secret, std::string source)
      : secret_(std::move(secret)), source_(std::move(source)) {}
  std::string secret_;
  std::string source_;
};

/// What opening a sealed text found.
enum class SealState {
  Valid,     // sealed with this secret, for this purpose, unaltered
  Invalid,   // sealed, but not by this secret, or altered since
  Unsealed,  // no seal line (or no secret to check it with)
};

/// Splits `text` into its seal and `body`; checks the seal when
/// `authenticator` is given (Unsealed otherwise, `body` still set).
SealState openSealed(const StoreAuthenticator *authenticator, SealPurpose purpose,
                     std::string_view text, std::string_view &body);

} // namespace streamlint::index
