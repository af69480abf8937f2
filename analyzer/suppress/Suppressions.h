#pragma once
// Dropping findings the user silenced with NOLINT comments (docs/suppressions.md).

#include "analyzer/Finding.h"

#include <vector>

namespace streamlint {

class SourceTextCache;

/// The check id of findings about the suppression comments themselves.
inline constexpr const char *kNolintCheckId = "streamlint-nolint";

/// What outputs say about streamlint-nolint (SARIF rules[], --list-checks).
RuleInfo nolintRuleInfo();

/// Removes every finding whose caret line a NOLINT, NOLINTNEXTLINE or
/// NOLINTBEGIN/NOLINTEND block covers for its check, and adds one
/// streamlint-nolint warning for each unmatched NOLINTBEGIN or NOLINTEND in
/// the files read. Each file is read once through `sources`; findings in
/// unreadable files are kept. The result is sorted with findingLess.
void removeSuppressedFindings(std::vector<Finding> &findings,
                              SourceTextCache &sources);

} // namespace streamlint
