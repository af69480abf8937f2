#pragma once
// NOLINT comments as clang-tidy users write them: NOLINT, NOLINTNEXTLINE,
// NOLINTBEGIN/NOLINTEND, each with an optional check list of globs.

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// One NOLINT-family comment in a source line.
struct NolintDirective {
  enum class Kind { SameLine, NextLine, Begin, End };
  Kind kind = Kind::SameLine;
  unsigned line = 0;   // 1-based
  unsigned column = 0; // 1-based byte column of "NOLINT"
  /// The text between the parentheses, whitespace removed; nullopt when the
  /// directive has no (closed) list and so covers every check.
  std::optional<std::string> checks;

  /// Whether this directive silences `checkId`.
  bool covers(llvm::StringRef checkId) const;
};

/// The directives in one line of source, left to right.
std::vector<NolintDirective> findNolintDirectives(llvm::StringRef lineText,
                                                  unsigned line);

/// Whether a comma-separated glob list (clang-tidy's syntax: '*' wildcards,
/// '-' excludes, the last matching entry wins) selects `checkId`. An entry
/// may name the check with or without the "streamlint-" prefix.
bool checkListMatches(llvm::StringRef list, llvm::StringRef checkId);

} // namespace streamlint
