#pragma once
// One translation unit's entry in the project index: what analyzing it
// produced (findings, whole-program summary) and the files whose contents it
// depends on, each with its SHA-256. No clang types.

#include "analyzer/Finding.h"
#include "analyzer/reach/ReachSummary.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint::index {

/// The format every entry names; an entry of another format is rebuilt.
inline constexpr const char *kEntryFormat = "streamlint-index-entry-1";

/// A file the TU read (main file or a non-system header) and its digest.
struct IncludedFile {
  std::string path;   // absolute, as clang opened it
  std::string sha256; // lowercase hex of the bytes clang parsed
};

/// What the index keeps of one analyzed TU.
struct IndexedUnit {
  std::vector<Finding> findings;         // before header filtering
  reach::TranslationUnitSummary reach;
  std::vector<IncludedFile> includes;    // main file first
  /// Recoverable compile errors (no fatal error): they depend only on the
  /// files read, so the partial analysis is kept like a clean one.
  std::optional<TranslationUnitProblem> problem;
  /// Paths that must still not exist (where clang looked for an include it
  /// did not find): one appearing makes the entry stale.
  std::vector<std::string> absent;
};

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256Hex(llvm::StringRef bytes);
/// SHA-256 of a file's current bytes; "" if it cannot be read.
std::string fileSha256(const std::string &path);

/// JSON text of an entry stored under `key`.
std::string entryToJson(const std::string &key, const IndexedUnit &unit);
/// Parses an entry; false (with `error` naming `origin`) when it is not a
/// complete entry of this format stored under `key`.
bool entryFromJson(const std::string &text, const std::string &origin,
                   const std::string &key, IndexedUnit &unit, std::string &error);

/// Full JSON forms of findings (related locations and fix-its included).
std::string findingsToJson(const std::vector<Finding> &findings);
bool findingsFromJson(const std::string &text, std::vector<Finding> &findings,
                      std::string &error);

} // namespace streamlint::index
