#pragma once
// The project index on disk: one entry per (TU, command, config), verified
// against the SHA-256 of every file the TU read before it is trusted, written
// atomically (a temporary file renamed into place), safe to share between
// concurrent runs. docs/index.md describes the layout and the key.

#include "analyzer/index/IndexEntry.h"

#include <map>
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
  /// An index in `directory` (created on first store).
  explicit ProjectIndex(std::string directory);

  /// The entry stored under `key`, if it is complete, of this format, and
  /// every file it lists still has the digest it had. A damaged entry adds
  /// a note and is treated as missing (the caller rebuilds it).
  std::optional<IndexedUnit> lookup(const std::string &key);
  /// Stores `unit` under `key` atomically; a failure adds a note (once).
  void store(const std::string &key, const IndexedUnit &unit);

  /// SHA-256 of a file, read once per run (all TUs see the same bytes).
  std::string digestOf(const std::string &path);

  const std::string &directory() const { return directory_; }
  /// Notes for the user (damaged entries, an unwritable directory).
  std::vector<std::string> takeNotes();
  unsigned hits() const { return hits_; }

private:
  std::string entryPath(const std::string &key) const;
  void note(const std::string &text);

  std::string directory_;
  std::mutex mutex_;
  std::map<std::string, std::string> digests_;
  std::vector<std::string> notes_;
  bool storeFailed_ = false;
  unsigned hits_ = 0;
};

} // namespace streamlint::index
