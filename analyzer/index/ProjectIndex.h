#pragma once
// The project index on disk: one entry per (TU, command, config), verified
// against the SHA-256 of every file the TU read before it is trusted, sealed
// with a secret kept outside the cache (StoreAuthentication.h), written
// atomically (a temporary file renamed into place), safe to share between
// concurrent runs. docs/index.md describes the layout, the key and what the
// index trusts.

#include "analyzer/index/IndexEntry.h"
#include "analyzer/index/StoreAuthentication.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace streamlint::index {

/// What this streamlint binary is: its version, the format of the index and
/// the executable's size and modification time (a rebuilt binary is another
/// tool, as a new clang-tidy is for ctcache).
std::string toolIdentity();

/// Hex SHA-256 over `parts`, each length-prefixed (no two lists collide).
std::string keyOf(const std::vector<std::string> &parts);

class ProjectIndex {
public:
  /// An index in `directory` (created on first store), sealed with
  /// `authenticator`; without one (no key could be had: `keyProblem` says
  /// why) the index is neither read nor written, and a note says so.
  ProjectIndex(std::string directory, std::optional<StoreAuthenticator> authenticator,
               std::string keyProblem = "");
  /// The index in `directory`, sealed with this user's key
  /// (StoreAuthenticator::load()).
  static std::unique_ptr<ProjectIndex> open(std::string directory);

  /// The entry stored under `key`, if it is complete, of this format,
  /// sealed with this index's secret, and every file it lists still has the
  /// digest it had. A damaged or unauthenticated entry adds a note and is
  /// treated as missing (the caller rebuilds it).
  std::optional<IndexedUnit> lookup(const std::string &key);
  /// Whether an entry is stored under `key`, trusted or not: the TU was
  /// analyzed before with this command and configuration.
  bool hasEntry(const std::string &key) const;
  /// Stores `unit` under `key` atomically; a failure adds a note (once).
  void store(const std::string &key, const IndexedUnit &unit);

  /// SHA-256 of a file, read once per run (all TUs see the same bytes).
  std::string digestOf(const std::string &path);

  const std::string &directory() const { return directory_; }
  /// Notes for the user (damaged or unauthenticated entries, an unwritable
  /// or foreign directory, no key).
  std::vector<std::string> takeNotes();
  unsigned hits() const { return hits_; }

private:
  friend class PreambleStore; // shares the directory, secret, digests and notes
  std::string entryPath(const std::string &key) const;
  void note(const std::string &text);
  /// Whether the directory may hold the index: streamlint's own (it has
  /// streamlint's CACHEDIR.TAG), missing or empty (it is made one). Decided
  /// once; a foreign directory (`--cache-dir .`) is not used, with a note.
  bool usable();

  std::string directory_;
  std::optional<StoreAuthenticator> authenticator_;
  std::mutex mutex_;
  std::map<std::string, std::string> digests_;
  std::vector<std::string> notes_;
  std::once_flag checked_;
  bool usable_ = false;
  bool storeFailed_ = false;
  unsigned unauthenticated_ = 0;
  unsigned hits_ = 0;
};

} // namespace streamlint::index
