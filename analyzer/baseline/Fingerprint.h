#pragma once
// Finding identities that survive edits elsewhere in the file: used by
// --baseline, SARIF partialFingerprints and GitLab's fingerprint.

#include "analyzer/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace streamlint {

class SourceTextCache;

/// Drops whitespace except where it separates two identifier characters, so
/// reformatting a statement keeps its fingerprint.
std::string normalizeSnippet(llvm::StringRef text);

/// Fills `fingerprint` on every finding that has none: 32 hex digits of
/// SHA-256 over (check id, path relative to `baseDirectory`, normalized
/// snippet, enclosing function, occurrence index). The snippet falls back to
/// the caret's source line (comments dropped), then to the message. The
/// occurrence index tells identical findings apart in source order, so two
/// equal calls in one function get different fingerprints.
void assignFingerprints(std::vector<Finding> &findings,
                        const std::string &baseDirectory,
                        SourceTextCache &sources);

} // namespace streamlint
