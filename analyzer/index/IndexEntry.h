#pragma once
// One translation unit's entry in the project index: what analyzing it
// produced (findings, whole-program summary) and the files whose contents it
// depends on, each with its SHA-256. No clang types.

#include "analyzer/Finding.h"
#include "analyzer/reach/ReachSummary.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace streamlint::index {

/// The format every entry names; an entry of another format is rebuilt.
inline constexpr const char *kEntryFormat = "streamlint-index-entry-3";

/// A file the TU read and its digest.
struct IncludedFile {
  std::string path;   // absolute, as clang opened it
  std::string sha256; // lowercase hex of the bytes clang parsed
  /// Read from a system include directory (-isystem, the host compiler's):
  /// the index checks it like any other file, a shard merge (which may run
  /// on another image) only the project's.
  bool system = false;
};

/// What the index keeps of one analyzed TU.
struct IndexedUnit {
  std::vector<Finding> findings;         // before header filtering
  reach::TranslationUnitSummary reach;
  std::vector<IncludedFile> includes;    // main file first, then every header
                                         // outside versionedDirectories
  /// Recoverable compile errors (no fatal error): they depend only on the
  /// files read, so the partial analysis is kept like a clean one.
  std::optional<TranslationUnitProblem> problem;
  /// Paths that must still not exist (where clang looked for an include it
  /// did not find): one appearing makes the entry stale.
  std::vector<std::string> absent;
};

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256Hex(llvm::StringRef bytes);
/// SHA-256 of a regular file's current bytes; "" if it cannot be read (or
/// is a FIFO, a device, a directory).
std::string fileSha256(const std::string &path);

/// A unit's JSON members (files read, findings, whole-program summary,
/// absent paths, problem), added to `object`: an index entry and a shard
/// part's TU both carry them.
void addUnitJson(nlohmann::json &object, const IndexedUnit &unit);
/// The unit addUnitJson() wrote; throws std::exception, saying what is
/// wrong, on anything else.
IndexedUnit unitFrom(const nlohmann::json &object, const std::string &origin);

/// JSON text of an entry stored under `key` (every byte of every string
/// kept: analyzer/index/StoredJson.h).
std::string entryToJson(const std::string &key, const IndexedUnit &unit);
/// Parses an entry; false (with `error` naming `origin`) when it is not a
/// complete entry of this format stored under `key`.
bool entryFromJson(const std::string &text, const std::string &origin,
                   const std::string &key, IndexedUnit &unit, std::string &error);

} // namespace streamlint::index
